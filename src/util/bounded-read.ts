import { closeSync, openSync, readSync, type Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { TooLargeError } from './errors.js';
import { MAX_FILE_BYTES } from './limits.js';

const MiB = 1024 * 1024;

/** How much of one kind of file driftcheck reads, and what a user does about one past it. */
export interface ReadLimit {
  /** The kind, as the error names it: "a suite", "a journal". */
  kind: string;
  /** Most bytes read from the file. */
  bytes: number;
  /** Longest line, for files read a line at a time (the only thing such a read holds whole). */
  lineBytes?: number;
  /** What to do about a file past the limit. */
  remedy: string;
}

/**
 * Every kind of file driftcheck reads, and how much of it. A size check before an
 * unbounded read is no limit for a pipe, a FIFO or a device (`validate /dev/stdin` fed by
 * `yes` grew by 3 GB in 5 s): the reads count what they take and stop at these.
 * Whole-file reads stay under V8's longest string (~512 MiB); files read a line at a time
 * hold one line, so only their lines are bounded that tightly.
 */
export const READ_LIMITS = {
  suite: {
    kind: 'a suite',
    bytes: MAX_FILE_BYTES,
    remedy: 'split it into smaller files — suites are meant to be read by people',
  },
  /** A suite's case table (JSONL, CSV): data, larger than suites; read whole when validated, a piece at a time when run. */
  table: {
    kind: 'a table',
    bytes: 64 * MiB,
    remedy: 'split it into several tables, or several suites',
  },
  config: {
    kind: 'a config',
    bytes: MAX_FILE_BYTES,
    remedy: 'a config names services and paths; check that this is the file you meant',
  },
  /** Hand-kept text files driftcheck edits (.gitignore). */
  text: {
    kind: 'a text file driftcheck edits',
    bytes: MAX_FILE_BYTES,
    remedy: 'check that this is the file you meant',
  },
  baseline: {
    kind: 'a baseline',
    bytes: 256 * MiB,
    remedy:
      'split the suite into smaller ones (each has its own baseline), or re-create it with `driftcheck baseline accept RUN_DIR`',
  },
  /** A tool result a suite names (`tool_results:` … `file:`): sent to the model at every step after its call. */
  toolResult: {
    kind: 'a tool result file',
    bytes: 1 * MiB,
    remedy:
      'a tool result is sent to the model at every later step of the loop: keep the part the model needs',
  },
  /** The verdicts kept between commands (util/verdict-cache.ts): 10,000 digests of 65 bytes, rounded up. */
  verdicts: {
    kind: 'the verdicts kept between commands',
    bytes: 1 * MiB,
    remedy: 'it is a cache: remove it, or set DRIFTCHECK_CACHE_DIR=off',
  },
  runMeta: {
    kind: "a run folder's run.json",
    bytes: 1 * MiB,
    remedy: 'pass the folder of a run under reports/',
  },
  /** A comparison folder's candidates.json: a run.json's worth per candidate. */
  candidatesFile: {
    kind: "a comparison folder's candidates.json",
    bytes: 16 * MiB,
    remedy: 'pass the comparison folder `run --models`/`--providers` wrote under reports/',
  },
  /** A report.json read whole: driftcheck 0.1's, or one re-indented by hand or a tool. */
  wholeReport: {
    kind: 'a report read whole',
    bytes: 256 * MiB,
    remedy:
      'render it again from its journal with `driftcheck report RUN_DIR` (that layout is read a case at a time)',
  },
  report: {
    kind: 'a report',
    bytes: 16 * 1024 * MiB,
    lineBytes: 128 * MiB,
    remedy: 'pass a run folder under reports/ or its report.json',
  },
  journal: {
    kind: 'a journal',
    bytes: 64 * 1024 * MiB,
    lineBytes: 128 * MiB,
    remedy: "check that this is a run folder's results.jsonl; a line this long was not written by driftcheck",
  },
  history: {
    kind: 'a history file',
    bytes: 16 * 1024 * MiB,
    lineBytes: 128 * MiB,
    remedy: 'check that this is a month file of a driftcheck history folder',
  },
} as const satisfies Record<string, ReadLimit>;

/** `5 MiB`, `16 GiB`: limits as people read them. */
function size(bytes: number): string {
  if (bytes >= 1024 * MiB && bytes % (1024 * MiB) === 0) return `${bytes / (1024 * MiB)} GiB`;
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  return `${bytes} bytes`;
}

function tooLarge(file: string, limit: ReadLimit, line?: number): TooLargeError {
  const what =
    line === undefined
      ? `file is too large: more than the ${size(limit.bytes)} driftcheck reads of ${limit.kind}`
      : `line ${line} is too long: more than the ${size(limit.lineBytes ?? limit.bytes)} driftcheck reads of a line of ${limit.kind}`;
  return new TooLargeError(file, `${what} (reading stopped there)`, limit.remedy);
}

/** The size of the pieces a file is read in (readPiecesSync's, chunks'). */
export const PIECE_BYTES = 256 * 1024;

/**
 * The file's bytes in pieces, counted: past `limit.bytes` it throws TooLargeError instead of
 * reading on. Reads sequentially (no position), so pipes, FIFOs and devices work as files do.
 * An error opening it (ENOENT, EISDIR…) is node's own, for the caller to word.
 */
async function* chunks(file: string, limit: ReadLimit): AsyncGenerator<Buffer> {
  const handle = await open(file, 'r');
  try {
    let total = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(PIECE_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, PIECE_BYTES, null);
      if (bytesRead === 0) return;
      total += bytesRead;
      if (total > limit.bytes) throw tooLarge(file, limit);
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/**
 * A file's bytes a piece at a time, read synchronously as they are asked for (for readers
 * that are themselves synchronous: a table's format), counted as chunks() counts them. Each
 * piece is PIECE_BYTES but the last, and its own memory (a reader may keep it). The file is closed
 * when the pieces end or the reading stops.
 */
export function* readPiecesSync(file: string, limit: ReadLimit): Generator<Buffer> {
  const fd = openSync(file, 'r');
  try {
    let total = 0;
    for (;;) {
      const piece = Buffer.allocUnsafe(PIECE_BYTES);
      let used = 0;
      for (let n = -1; n !== 0 && used < PIECE_BYTES; used += n)
        n = readSync(fd, piece, used, PIECE_BYTES - used, null);
      if (used === 0) return;
      total += used;
      if (total > limit.bytes) throw tooLarge(file, limit);
      yield piece.subarray(0, used);
      if (used < PIECE_BYTES) return;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * A whole file, counted as chunks() counts it, read into one buffer: sized from the file's
 * size when it is a regular file (pieces joined at the end held a 75 MB baseline twice at
 * once), grown as it fills otherwise (pipes, FIFOs, devices).
 */
export async function readBounded(file: string, limit: ReadLimit): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    return await readHandleBounded(handle, await handle.stat(), file, limit);
  } finally {
    await handle.close();
  }
}

/**
 * readBounded of a file the caller has open: `info` is its stat, `file` names it in
 * errors. The caller closes it.
 */
export async function readHandleBounded(
  handle: FileHandle,
  info: Stats,
  file: string,
  limit: ReadLimit,
  /** Where to read from in a plain file (null: on from where it is, as a pipe is read). */
  start: number | null = null,
): Promise<Buffer> {
  // A plain file past the limit is refused by its size: read, it filled the limit first
  // (256 MiB of a baseline) only to be refused.
  if (info.isFile() && info.size > limit.bytes) throw tooLarge(file, limit);
  // One byte more than the size, so that the end is seen without growing.
  let buffer = Buffer.allocUnsafe(info.isFile() ? Math.min(info.size, limit.bytes) + 1 : PIECE_BYTES);
  let used = 0;
  for (;;) {
    if (used === buffer.length) {
      const wider = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit.bytes + 1));
      buffer.copy(wider, 0, 0, used);
      buffer = wider;
    }
    const at = start === null ? null : start + used;
    const { bytesRead } = await handle.read(buffer, used, buffer.length - used, at);
    if (bytesRead === 0) return buffer.subarray(0, used);
    used += bytesRead;
    if (used > limit.bytes) throw tooLarge(file, limit);
  }
}

/** A whole file as UTF-8 text, read through the counted stream. */
export async function readBoundedText(file: string, limit: ReadLimit): Promise<string> {
  return (await readBounded(file, limit)).toString('utf8');
}

/**
 * A file's lines (without `\n` or `\r\n`), read through the counted stream: one line is
 * held at a time, and a line past `limit.lineBytes` throws TooLargeError. Breaking out of
 * the loop closes the file.
 */
export async function* readBoundedLines(file: string, limit: ReadLimit): AsyncGenerator<string> {
  for await (const line of readLineSpans(file, limit)) yield line.text!;
}

/** One line of a file: where its bytes are, and its text when it was wanted. */
export interface LineSpan {
  /** 1-based. */
  number: number;
  offset: number;
  /** Its bytes, without the line break. */
  length: number;
  /** Null for a line `want` passed over (it is not decoded). */
  text: string | null;
}

/**
 * readBoundedLines with each line's place in the file: `want` sees a line's bytes and says
 * whether to decode it (a scan for a few lines of a large file decodes only those).
 */
export async function* readLineSpans(
  file: string,
  limit: ReadLimit,
  want: (bytes: Buffer) => boolean = () => true,
): AsyncGenerator<LineSpan> {
  const max = limit.lineBytes ?? limit.bytes;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let number = 0;
  let offset = 0;
  const take = (last: Buffer): LineSpan => {
    number++;
    const bytes = pending.length === 0 ? last : Buffer.concat([...pending, last]);
    pending = [];
    pendingBytes = 0;
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    const line = bytes.subarray(0, end);
    const span = { number, offset, length: end, text: want(line) ? line.toString('utf8') : null };
    offset += bytes.length + 1;
    return span;
  };
  for await (const chunk of chunks(file, limit)) {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      if (pendingBytes + nl - start > max) throw tooLarge(file, limit, number + 1);
      yield take(chunk.subarray(start, nl));
      start = nl + 1;
    }
    if (start < chunk.length) {
      pendingBytes += chunk.length - start;
      if (pendingBytes > max) throw tooLarge(file, limit, number + 1);
      pending.push(chunk.subarray(start));
    }
  }
  if (pendingBytes > 0) yield take(Buffer.alloc(0));
}
