import type { FileHandle } from 'node:fs/promises';

/** One member of a JSON object: its key (decoded) and where its value's bytes are. */
interface Member {
  key: string;
  /** Where its key's opening quote is: members from one key to another value's end are a valid object body. */
  keyStart: number;
  start: number;
  end: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * One step through an object's members, from `i` (just past its `{` or past a member's
 * value): the next member and where the scan goes on, the object's end, 'more' when the
 * bytes end first (a window of a file may hold the rest), or null when they are not an
 * object it can walk. A member whose key is `descend` and whose value is an object is
 * given as where that object's members begin, its end not looked for.
 */
type FlatStep = { member: Member; next: number } | { close: number } | 'more' | null;
type Step = FlatStep | { descend: string; at: number };

/** Without `descend`, every member is given as a member. */
function step(buffer: Buffer, i: number, first: boolean): FlatStep;
function step(buffer: Buffer, i: number, first: boolean, descend: string): Step;
function step(buffer: Buffer, i: number, first: boolean, descend?: string): Step {
  i = skipSpace(buffer, i);
  if (i >= buffer.length) return 'more';
  if (buffer[i] === CLOSE_OBJECT) return { close: i + 1 };
  if (!first) {
    if (buffer[i] !== COMMA) return null;
    i = skipSpace(buffer, i + 1);
    if (i >= buffer.length) return 'more';
  }
  if (buffer[i] !== QUOTE) return null;
  const keyStart = i;
  const keyEnd = stringEnd(buffer, i);
  if (keyEnd < 0) return 'more';
  let key: unknown;
  // A key without escapes is its bytes (and most are): no JSON.parse per key.
  if (plain(buffer, i + 1, keyEnd - 1)) key = buffer.toString('utf8', i + 1, keyEnd - 1);
  else {
    try {
      key = JSON.parse(buffer.toString('utf8', i, keyEnd));
    } catch {
      return null;
    }
  }
  i = skipSpace(buffer, keyEnd);
  if (i >= buffer.length) return 'more';
  if (buffer[i] !== COLON) return null;
  const start = skipSpace(buffer, i + 1);
  if (start >= buffer.length) return 'more';
  if (typeof key === 'string' && key === descend && buffer[start] === OPEN_OBJECT)
    return { descend: key, at: start + 1 };
  const end = valueEndAt(buffer, start);
  // A string or a nested value not closed yet may end further on; any other value that
  // has no bytes is not JSON.
  if (end < 0)
    return buffer[start] === QUOTE || buffer[start] === OPEN_OBJECT || buffer[start] === OPEN_ARRAY
      ? 'more'
      : null;
  // What follows the value must be seen too: a number at the bytes' end may go on.
  const next = skipSpace(buffer, end);
  if (next >= buffer.length) return 'more';
  return { member: { key: key as string, keyStart, start, end }, next };
}

/** What walkObject finds in a file, in its order. */
export type Walked =
  /** A member of the object (not the one descended into): its value's text. */
  | { kind: 'member'; key: string; text: string }
  /**
   * Members of the object-valued member descended into, a batch at a time: their places in
   * the file, and their text as one object (`{…}`), for one JSON.parse of the batch.
   */
  | { kind: 'inner'; members: Member[]; text: string }
  /** Bytes it cannot walk (not JSON, or not an object): the caller reads the file whole and says what is wrong. */
  | { kind: 'unwalkable' };

/** Bytes of a file held at once by walkObject (more when one value is larger). */
const WINDOW_BYTES = 1 << 20;

/**
 * The JSON object a file holds, walked a window of bytes at a time: its members, and the
 * members of its object-valued member `inner` in batches of up to `batch`, each with its
 * place in the file. The file is never held whole (a baseline of 100,000 cases is 75 MB);
 * one member at a time is, so a member larger than the window widens it. Reads the first
 * `size` bytes (the size the caller found): bytes past them are not the file it meant.
 */
export async function* walkObject(
  handle: FileHandle,
  size: number,
  inner: string,
  batch: number,
  windowBytes = WINDOW_BYTES,
): AsyncGenerator<Walked> {
  const unwalkable: Walked = { kind: 'unwalkable' };
  const w = new FileWindow(handle, size, windowBytes);
  await w.more(0);
  let at = w.base + skipSpace(w.bytes, 0);
  while (at - w.base >= w.bytes.length && (await w.more(at))) at = w.base + skipSpace(w.bytes, at - w.base);
  if (w.bytes[at - w.base] !== OPEN_OBJECT) return yield unwalkable;
  at++;
  let descended = false;
  for (let first = true; ;) {
    const s = step(w.bytes, at - w.base, first, inner);
    if (s === 'more') {
      if (await w.more(at)) continue;
      return yield unwalkable;
    }
    if (s === null) return yield unwalkable;
    if ('close' in s) {
      at = w.base + s.close;
      break;
    }
    first = false;
    if ('member' in s) {
      const { member } = s;
      yield { kind: 'member', key: member.key, text: w.bytes.toString('utf8', member.start, member.end) };
      at = w.base + s.next;
      continue;
    }
    // The members of `inner`, batched: a batch is given before the window moves on. A second
    // `inner` would replace the first (JSON.parse keeps the last): not walked.
    if (descended) return yield unwalkable;
    descended = true;
    at = w.base + s.at;
    let members: Member[] = [];
    const flush = (): Walked => {
      const text = `{${w.bytes.toString('utf8', members[0]!.keyStart - w.base, members[members.length - 1]!.end - w.base)}}`;
      const walked: Walked = { kind: 'inner', members, text };
      members = [];
      return walked;
    };
    for (let innerFirst = true; ;) {
      const t = step(w.bytes, at - w.base, innerFirst);
      if (t === 'more') {
        if (members.length > 0) yield flush();
        if (await w.more(at)) continue;
        return yield unwalkable;
      }
      if (t === null) return yield unwalkable;
      if ('close' in t) {
        if (members.length > 0) yield flush();
        at = w.base + t.close;
        break;
      }
      const { key, keyStart, start, end } = t.member;
      members.push({ key, keyStart: w.base + keyStart, start: w.base + start, end: w.base + end });
      at = w.base + t.next;
      innerFirst = false;
      if (members.length === batch) yield flush();
    }
  }
  // Nothing but whitespace may follow the object.
  for (;;) {
    if (skipSpace(w.bytes, at - w.base) < w.bytes.length) return yield unwalkable;
    at = w.base + w.bytes.length;
    if (!(await w.more(at))) return;
  }
}

/** A window of a file's bytes that moves on through it (walkObject's reads). */
class FileWindow {
  private buffer: Buffer;
  private used = 0;
  /** The file offset of the window's first byte. */
  base = 0;

  constructor(
    private readonly handle: FileHandle,
    private readonly size: number,
    windowBytes: number,
  ) {
    this.buffer = Buffer.allocUnsafe(Math.min(windowBytes, size));
  }

  /** The bytes in the window. */
  get bytes(): Buffer {
    return this.buffer.subarray(0, this.used);
  }

  /**
   * Lets go of the bytes before file offset `keep` and reads on (a window that `keep`
   * still fills grows); false when the file has no more bytes.
   */
  async more(keep: number): Promise<boolean> {
    const drop = keep - this.base;
    if (drop > 0) {
      this.buffer.copy(this.buffer, 0, drop, this.used);
      this.used -= drop;
      this.base = keep;
    }
    if (this.base + this.used >= this.size) return false;
    if (this.used === this.buffer.length) {
      const wider = Buffer.allocUnsafe(Math.min(this.buffer.length * 2, this.size - this.base));
      this.buffer.copy(wider, 0, 0, this.used);
      this.buffer = wider;
    }
    const want = Math.min(this.buffer.length - this.used, this.size - this.base - this.used);
    const { bytesRead } = await this.handle.read(this.buffer, this.used, want, this.base + this.used);
    this.used += bytesRead;
    return bytesRead > 0;
  }
}
/** No escape and no control character between: the bytes are the string (JSON.parse would say the same). */
function plain(buffer: Buffer, from: number, to: number): boolean {
  for (let j = from; j < to; j++) if (buffer[j] === BACKSLASH || buffer[j]! < 0x20) return false;
  return true;
}

/** The first byte at or after `i` that is not JSON whitespace (the buffer's length when none is). */
function skipSpace(buffer: Buffer, i: number): number {
  while (i < buffer.length) {
    const b = buffer[i]!;
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) break;
    i++;
  }
  return i;
}

/** Just past the string whose opening quote is at `i`, or -1 (the next quote not escaped, found natively). */
function stringEnd(buffer: Buffer, i: number): number {
  for (let from = i + 1; ;) {
    const q = buffer.indexOf(QUOTE, from);
    if (q < 0) return -1;
    let slashes = 0;
    for (let k = q - 1; k > i && buffer[k] === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** Just past the value starting at `i` (its contents unchecked: JSON.parse checks them), or -1. */
function valueEndAt(buffer: Buffer, i: number): number {
  const first = buffer[i];
  if (first === QUOTE) return stringEnd(buffer, i);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    let j = i;
    while (j < buffer.length) {
      const b = buffer[j]!;
      if (b === COMMA || b === CLOSE_OBJECT || b === CLOSE_ARRAY || b <= 0x20) break;
      j++;
    }
    return j > i ? j : -1;
  }
  let depth = 0;
  for (let j = i; j < buffer.length; j++) {
    const b = buffer[j]!;
    if (b === QUOTE) {
      j = stringEnd(buffer, j) - 1;
      if (j < 0) return -1;
    } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) depth++;
    else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}
