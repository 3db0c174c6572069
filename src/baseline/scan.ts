/** One member of a JSON object: its key (decoded) and where its value's bytes are. */
export interface Member {
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
 * The members of the JSON object whose `{` is at `start` (after whitespace), without
 * parsing their values: a baseline of 100,000 cases is read a case at a time, never as one
 * object graph. Null when the bytes are not an object it can walk; the caller then lets
 * JSON.parse say what is wrong. Bytes inside strings never count as structure.
 */
export function objectMembers(buffer: Buffer, start = 0): { members: Member[]; end: number } | null {
  let i = skipSpace(buffer, start);
  if (buffer[i] !== OPEN_OBJECT) return null;
  i = skipSpace(buffer, i + 1);
  const members: Member[] = [];
  if (buffer[i] === CLOSE_OBJECT) return { members, end: i + 1 };
  for (;;) {
    if (buffer[i] !== QUOTE) return null;
    const keyStart = i;
    const keyEnd = stringEnd(buffer, i);
    if (keyEnd < 0) return null;
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
    if (buffer[i] !== COLON) return null;
    const valueStart = skipSpace(buffer, i + 1);
    const valueEnd = valueEndAt(buffer, valueStart);
    if (valueEnd < 0) return null;
    members.push({ key: key as string, keyStart, start: valueStart, end: valueEnd });
    i = skipSpace(buffer, valueEnd);
    if (buffer[i] === COMMA) {
      i = skipSpace(buffer, i + 1);
      continue;
    }
    if (buffer[i] === CLOSE_OBJECT) return { members, end: i + 1 };
    return null;
  }
}

/** No escape and no control character between: the bytes are the string (JSON.parse would say the same). */
function plain(buffer: Buffer, from: number, to: number): boolean {
  for (let j = from; j < to; j++) if (buffer[j] === BACKSLASH || buffer[j]! < 0x20) return false;
  return true;
}

/** The first byte at or after `i` that is not JSON whitespace (the buffer's length when none is). */
export function skipSpace(buffer: Buffer, i: number): number {
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
