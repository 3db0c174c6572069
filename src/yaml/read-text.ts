import { isUtf8 } from 'node:buffer';
import { stat } from 'node:fs/promises';
import { TooLargeError } from '../util/errors.js';
import type { Diagnostic } from '../util/errors.js';
import { READ_LIMITS, type ReadLimit, readBounded } from '../util/bounded-read.js';

export type TextRead =
  { text: string; diagnostic?: undefined } | { text?: undefined; diagnostic: Diagnostic };

export type BytesRead =
  { bytes: Buffer; diagnostic?: undefined } | { bytes?: undefined; diagnostic: Diagnostic };

/**
 * Reads a suite or config file as UTF-8 text, refusing what cannot be one: missing
 * files, folders, files over the size limit (counted as read, so a pipe or a device that
 * never ends stops there too), binary or non-UTF-8 content. A leading byte-order mark is
 * dropped.
 */
export async function readTextFile(
  path: string,
  shownAs: string = path,
  limit: ReadLimit = READ_LIMITS.suite,
  /** What to name instead of a folder. */
  expected = 'a YAML text file',
): Promise<TextRead> {
  const read = await readUtf8File(path, shownAs, limit, expected);
  return read.diagnostic ? read : { text: new TextDecoder('utf-8').decode(read.bytes) };
}

/**
 * Reads a file that must be UTF-8 text, as readTextFile does, and keeps its bytes: a
 * table's, when it is validated, read a line at a time by its format. As bytes it stays out
 * of the JavaScript heap (a 100,000-row table is 4.5 MB of text, which the heap would grow
 * by several times). A leading byte-order mark is kept (the table's format drops it).
 */
export async function readUtf8File(
  path: string,
  shownAs: string,
  limit: ReadLimit,
  /** What to name instead of a folder. */
  expected: string,
): Promise<BytesRead> {
  const at = (message: string, hint: string): BytesRead => ({
    diagnostic: wholeFile(shownAs, message, hint),
  });
  try {
    if ((await stat(path)).isDirectory()) return at('is a folder, not a file', `name ${expected}`);
  } catch (error) {
    return at(describeFsError(error), 'check the path');
  }
  let bytes: Buffer;
  try {
    bytes = await readBounded(path, limit);
  } catch (error) {
    return { diagnostic: readFailure(shownAs, error, expected) };
  }
  if (bytes.includes(0)) return at('binary file (contains NUL bytes)', `point driftcheck at ${expected}`);
  if (!isUtf8(bytes)) return at('file is not valid UTF-8', 're-save it as UTF-8');
  return { bytes };
}

/**
 * A failed read of a whole file as a diagnostic: past its limit, a folder, or what the file
 * system said (readUtf8File's words; a table read again a piece at a time gives the same).
 */
export function readFailure(shownAs: string, error: unknown, expected: string): Diagnostic {
  if (error instanceof TooLargeError) return wholeFile(shownAs, error.what, error.remedy);
  if ((error as NodeJS.ErrnoException | null)?.code === 'EISDIR')
    return wholeFile(shownAs, 'is a folder, not a file', `name ${expected}`);
  return wholeFile(shownAs, describeFsError(error), 'check the path and its permissions');
}

function wholeFile(file: string, message: string, hint: string): Diagnostic {
  return { file, line: 1, column: 1, whole_file: true, message, hint };
}

/** Whether an error is one of the file system's (Node's carry the system call that failed). */
export function isFsError(error: unknown): boolean {
  return typeof (error as NodeJS.ErrnoException | null)?.syscall === 'string';
}

/** What describeFsError says of a path that names nothing. */
export const NO_SUCH_FILE = 'no such file or folder';

/** Turns a node:fs error into a short message without a stack or an errno number. */
export function describeFsError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return NO_SUCH_FILE;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOTDIR') return 'a part of the path is not a folder';
  if (code === 'ELOOP') return 'too many symbolic links';
  return error instanceof Error ? error.message : String(error);
}
