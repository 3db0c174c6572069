import { randomBytes } from 'node:crypto';
import { readSync } from 'node:fs';
import { type FileHandle, open, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removedIfKilled } from '../util/scratch.js';

const SPILL_SUFFIX = '.spill';

/**
 * Removes the spill files a killed run left in its folder (its process never got to remove
 * them). Only for a folder no other process folds into: a run folder under its lock.
 */
export async function removeStaleSpills(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names)
    if (/^\.fold\.[0-9a-f]{12}\.spill$/.test(name)) await rm(join(dir, name), { force: true });
}

/** Values a spill holds as objects before it moves them to disk: a small suite never touches the disk. */
export const SPILL_HOLD = 2_000;
const BUFFER_BYTES = 1 << 20;
/** What one read from the file takes at most: values written close together are read back together. */
const WINDOW_BYTES = 1 << 16;
/** How many of the next keys a read looks at to decide how much it takes. */
const LOOK_AHEAD = 256;

/**
 * Values kept by key (a case's slot: a small whole number) until they are read back once,
 * in any order — a suite's case entries between the moment each case is complete and the
 * moment the suite's verdicts are known (its pass-rate and latency tests are decided over
 * all its cases). The first SPILL_HOLD are held as they are; past that every value goes to
 * a hidden file as one JSON text, and only its place is kept, in a column of numbers by
 * key, so a suite of 100,000 cases holds 800 KB of offsets, not 100,000 entries (nor a map
 * of 100,000 boxed numbers). Values go through JSON: what cannot (undefined, functions)
 * does not survive.
 */
export class Spill<T> {
  private held: Map<number, T> | null = new Map();
  /** Where each value is: its offset and length in one number (see place; NaN: none)… */
  private places = new Float64Array(0);
  /** …or, past 2 MiB or 4 GiB of spill, as a pair. */
  private readonly large = new Map<number, [number, number]>();
  /** Made when the values first go to disk: a run of many small suites allocates none. */
  private buffer: Buffer = Buffer.alloc(0);
  /**
   * Buffers whose write is done, for the next flush: a new megabyte per flush made the
   * allocator keep tens of megabytes of freed buffers in the process's memory.
   */
  private readonly free: Buffer[] = [];
  private used = 0;
  /** Bytes handed to the file so far (written or being written). */
  private flushed = 0;
  /** The spill file, and what unregisters it from removal on a signal (removedIfKilled). */
  private file: { path: string; handle: Promise<FileHandle>; release: () => void } | null = null;
  private writing: Promise<unknown> = Promise.resolve();
  private failure: unknown = null;

  private readonly hold: number;

  constructor(
    private readonly dir: string = tmpdir(),
    hold: number = SPILL_HOLD,
    /**
     * How many values are expected: more than `hold` go to disk from the first. Held first
     * and then let go, a large suite's first entries outlived young collections, and V8 then
     * made every later entry straight in the old generation (allocation-site pretenuring),
     * where the entries written to disk at once were garbage to mark: a 100,000-row JSONL
     * first run promoted 585 MB (12 mark-compacts), 202 MB (6) without the held start.
     */
    expected = 0,
  ) {
    this.hold = expected > hold ? 0 : hold;
  }

  /** Keeps a value under its key (a second value for a key replaces the first). */
  put(key: number, value: T): void {
    if (this.held) {
      this.held.set(key, value);
      if (this.held.size <= this.hold) return;
      const held = this.held;
      this.held = null;
      this.buffer = Buffer.allocUnsafe(BUFFER_BYTES);
      for (const [k, v] of held) this.append(k, v);
      return;
    }
    this.append(key, value);
  }

  /**
   * The values by key when every one is still held in memory (no file was needed), read
   * without a promise per value; null once the spill went to disk (use `read`).
   */
  heldValues(): ReadonlyMap<number, T> | null {
    return this.held;
  }

  /**
   * The values of these keys in this order (undefined for a key never put), each read once.
   * A read from the file takes the value asked for and those of the next keys asked for that
   * lie within a window after it: values written in about the order they are read come
   * back a window at a time, and values read in another order (a baseline's ids sorted as
   * text, where they were put in plan order) are not read a whole window each.
   */
  async *read(keys: Iterable<number>): AsyncGenerator<T | undefined> {
    if (this.held) {
      for (const key of keys) yield this.held.get(key);
      return;
    }
    await this.drain();
    const handle = this.file ? await this.file.handle : null;
    const tail = this.buffer.subarray(0, this.used);
    // One buffer for every read (a new one per window churned 64 KB of memory outside the
    // heap per few dozen entries); only an entry larger than it gets its own.
    const reused = Buffer.allocUnsafe(WINDOW_BYTES);
    let window = Buffer.alloc(0);
    let start = 0;
    const ahead = new LookAhead(keys[Symbol.iterator](), LOOK_AHEAD);
    for (let key = ahead.next(); key !== undefined; key = ahead.next()) {
      const where = this.where(key);
      if (where === undefined) {
        yield undefined;
        continue;
      }
      const [at, length] = where;
      if (at >= this.flushed) {
        yield parse<T>(tail, at - this.flushed, length);
        continue;
      }
      if (at < start || at + length > start + window.length) {
        // As far as the furthest of the next values asked for that fit in a window from here.
        let end = at + length;
        for (const next of ahead.upcoming()) {
          const w = this.where(next);
          if (w && w[0] >= at && w[0] + w[1] <= Math.min(at + WINDOW_BYTES, this.flushed))
            end = Math.max(end, w[0] + w[1]);
        }
        window = length > reused.length ? Buffer.allocUnsafe(length) : reused;
        // Read synchronously: a few dozen microseconds from the page cache, where each read
        // through the thread pool waited its turn (accepting a 100,000-case baseline made
        // 19,000 reads, 1.8 s of them waiting).
        const bytesRead = readSync(handle!.fd, window, 0, end - at, at);
        window = window.subarray(0, bytesRead);
        start = at;
      }
      yield parse<T>(window, at - start, length);
    }
  }

  /** Where a key's value is in the file (or the buffer past it): offset and length, or undefined. */
  private where(key: number): [number, number] | undefined {
    const placed = key < this.places.length ? this.places[key]! : Number.NaN;
    return Number.isNaN(placed) ? this.large.get(key) : unplace(placed);
  }

  /** Removes the file, if there is one. */
  async discard(): Promise<void> {
    const file = this.file;
    this.file = null;
    this.held = new Map();
    this.buffer = Buffer.alloc(0);
    this.used = 0;
    this.free.length = 0;
    this.places = new Float64Array(0);
    this.large.clear();
    await this.writing.catch(() => {});
    this.flushed = 0;
    if (!file) return;
    await (await file.handle.catch(() => null))?.close().catch(() => {});
    await rm(file.path, { force: true });
    file.release();
  }

  private append(key: number, value: T): void {
    const text = JSON.stringify(value);
    // A UTF-16 code unit is at most 3 UTF-8 bytes: past that bound, flush first.
    if (this.used + text.length * 3 > this.buffer.length) {
      this.flush();
      if (text.length * 3 > this.buffer.length) {
        const bytes = Buffer.from(text, 'utf8');
        this.locate(key, this.flushed, bytes.length);
        this.write(bytes);
        return;
      }
    }
    const bytes = this.buffer.write(text, this.used);
    this.locate(key, this.flushed + this.used, bytes);
    this.used += bytes;
  }

  private locate(key: number, offset: number, length: number): void {
    if (key >= this.places.length) {
      const wider = new Float64Array(Math.max(1024, key + 1, this.places.length * 2)).fill(Number.NaN);
      wider.set(this.places);
      this.places = wider;
    }
    const placed = place(offset, length);
    // A key written again moves: its old place goes from wherever it was.
    this.large.delete(key);
    this.places[key] = placed ?? Number.NaN;
    if (placed === null) this.large.set(key, [offset, length]);
  }

  /** Hands the buffer to the file in the background; writes stay in order. */
  private flush(): void {
    if (this.used === 0) return;
    const full = this.buffer;
    const used = this.used;
    this.buffer = this.free.pop() ?? Buffer.allocUnsafe(BUFFER_BYTES);
    this.used = 0;
    this.write(full.subarray(0, used), () => this.free.push(full));
  }

  private write(bytes: Buffer, release?: () => void): void {
    if (!this.file) {
      const path = join(this.dir, `.fold.${randomBytes(6).toString('hex')}${SPILL_SUFFIX}`);
      const handle = open(path, 'w+');
      // Awaited by the first write, which may wait behind others: never an unhandled rejection.
      handle.catch(() => {});
      this.file = { path, handle, release: removedIfKilled(path) };
    }
    const handle = this.file.handle;
    const at = this.flushed;
    this.flushed += bytes.length;
    this.writing = this.writing
      .then(async () => {
        const h = await handle;
        for (let done = 0; done < bytes.length;) {
          const { bytesWritten } = await h.write(bytes, done, bytes.length - done, at + done);
          done += bytesWritten;
        }
      })
      .finally(release)
      .catch((error: unknown) => {
        this.failure ??= error;
      });
  }

  /** Waits for every background write; rethrows the first that failed. */
  private async drain(): Promise<void> {
    await this.writing;
    if (this.failure) throw this.failure;
  }
}

/** Lengths below this (2 MiB) share one number with an offset below 2^32: exact below 2^53. */
const LENGTH_BITS = 2 ** 21;
const OFFSET_LIMIT = 2 ** 32;

/** An offset and a length as one number (one map entry per value, not two), or null when they do not fit. */
function place(offset: number, length: number): number | null {
  return length < LENGTH_BITS && offset < OFFSET_LIMIT ? offset * LENGTH_BITS + length : null;
}

function unplace(place: number): [number, number] {
  return [Math.floor(place / LENGTH_BITS), place % LENGTH_BITS];
}

function parse<T>(buffer: Buffer, at: number, length: number): T {
  return JSON.parse(buffer.toString('utf8', at, at + length)) as T;
}

/** An iterator with its next few items in view. */
class LookAhead {
  private readonly queue: number[] = [];
  private head = 0;
  private done = false;

  constructor(
    private readonly source: Iterator<number>,
    private readonly size: number,
  ) {}

  next(): number | undefined {
    this.fill();
    if (this.head === this.queue.length) return undefined;
    const key = this.queue[this.head++]!;
    // Dropped from the front now and then, not on every item.
    if (this.head >= this.size) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    return key;
  }

  /** The items after the one last taken, at most `size` of them. */
  *upcoming(): Generator<number> {
    this.fill();
    for (let i = this.head; i < this.queue.length; i++) yield this.queue[i]!;
  }

  private fill(): void {
    while (!this.done && this.queue.length - this.head < this.size) {
      const item = this.source.next();
      if (item.done) this.done = true;
      else this.queue.push(item.value);
    }
  }
}
