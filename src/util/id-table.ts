import { widenColumns } from './columns.js';

/**
 * Strings by slot, in the order they were added, and the slot of a string: their characters
 * one after another in one buffer, found through a hash table of slots in a typed array.
 *
 * Why not a `string[]` and a `Map<string, number>`: a 100,000-row suite's case ids held
 * that way took 6.2 MB of the JavaScript heap (2.9 MB of strings, 3.3 MB of map), and the
 * old generation grows to about four times what it holds before it collects; here they
 * take about 2 MB outside it. A string is made again when asked for (`at`), and dies young.
 */
export class IdTable {
  /** Each string's characters: one byte each when all are ASCII, else two (UTF-16). */
  private bytes = Buffer.allocUnsafe(16 * 1024);
  private used = 0;
  /**
   * By slot: where its characters end in `bytes` (they begin where the slot before's end),
   * its hash, and 1 when it is ASCII (one byte a character).
   */
  private readonly slots = {
    ends: new Int32Array(64),
    hashes: new Uint32Array(64),
    ascii: new Uint8Array(64),
  };
  /** Open addressing with linear probing: slot + 1, or 0 where empty. At most half full. */
  private table = new Int32Array(128);
  private count = 0;

  /** How many strings it holds. */
  get size(): number {
    return this.count;
  }

  /** The slot of `id`, or -1. */
  slotOf(id: string): number {
    const hash = hashOf(id);
    const mask = this.table.length - 1;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const entry = this.table[i]!;
      if (entry === 0) return -1;
      if (this.holds(entry - 1, id, hash)) return entry - 1;
    }
  }

  /** Adds `id` in the next slot, unless it is held already; its slot either way. */
  add(id: string): number {
    const hash = hashOf(id);
    const mask = this.table.length - 1;
    let i = hash & mask;
    for (; this.table[i] !== 0; i = (i + 1) & mask) {
      const held = this.table[i]! - 1;
      if (this.holds(held, id, hash)) return held;
    }
    const slot = this.count;
    if (slot === this.slots.ends.length) widenColumns(this.slots, Math.max(64, slot * 2));
    const ascii = isAscii(id);
    const length = ascii ? id.length : id.length * 2;
    if (this.used + length > this.bytes.length) {
      const wider = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + length));
      this.bytes.copy(wider, 0, 0, this.used);
      this.bytes = wider;
    }
    this.used += this.bytes.write(id, this.used, ascii ? 'latin1' : 'utf16le');
    this.slots.ends[slot] = this.used;
    this.slots.hashes[slot] = hash;
    this.slots.ascii[slot] = ascii ? 1 : 0;
    this.count++;
    if (this.count * 2 > this.table.length) this.rehash(this.table.length * 2);
    else this.table[i] = slot + 1;
    return slot;
  }

  /**
   * Makes room for `slots` strings at least, when they are more than there is room for: a
   * holder that knows how many are coming grows once, not by doubling (the old arrays
   * beside the new ones each time, and up to twice the room needed).
   */
  reserve(slots: number): void {
    if (slots > this.slots.ends.length) widenColumns(this.slots, slots);
    let size = this.table.length;
    while (slots * 2 > size) size *= 2;
    if (size > this.table.length) this.rehash(size);
  }

  /** The string in `slot`. */
  at(slot: number): string {
    const start = slot === 0 ? 0 : this.slots.ends[slot - 1]!;
    return this.bytes.toString(this.slots.ascii[slot] ? 'latin1' : 'utf16le', start, this.slots.ends[slot]);
  }

  /** The strings in slot order. */
  *[Symbol.iterator](): Generator<string> {
    for (let slot = 0; slot < this.count; slot++) yield this.at(slot);
  }

  /** Whether `slot` holds `id`: compared in place, no string made. */
  private holds(slot: number, id: string, hash: number): boolean {
    if (this.slots.hashes[slot] !== hash) return false;
    const start = slot === 0 ? 0 : this.slots.ends[slot - 1]!;
    const { bytes } = this;
    if (this.slots.ascii[slot]) {
      if (this.slots.ends[slot]! - start !== id.length) return false;
      for (let k = 0; k < id.length; k++) if (bytes[start + k] !== id.charCodeAt(k)) return false;
      return true;
    }
    return this.slots.ends[slot]! - start === id.length * 2 && this.at(slot) === id;
  }

  private rehash(size: number): void {
    const table = new Int32Array(size);
    const mask = size - 1;
    for (let slot = 0; slot < this.count; slot++) {
      let i = this.slots.hashes[slot]! & mask;
      while (table[i] !== 0) i = (i + 1) & mask;
      table[i] = slot + 1;
    }
    this.table = table;
  }
}

/** FNV-1a over the UTF-16 code units, 32 bits. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) hash = Math.imul(hash ^ text.charCodeAt(k), 0x01000193);
  return hash >>> 0;
}

function isAscii(text: string): boolean {
  for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) > 0x7f) return false;
  return true;
}
