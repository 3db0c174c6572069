import { createHash } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { TooLargeError } from '../errors.js';
import type { Diagnostic } from '../types.js';
import { READ_LIMITS, readPiecesSync } from '../util/bounded-read.js';
import { displayPath } from '../yaml/display-path.js';
import { describeFsError } from '../yaml/read-text.js';
import type { TableText } from './expand.js';
import type { SuiteFile } from './expand-paths.js';
import { tableDigest } from './sources/index.js';
import type { SuiteSpec } from './spec.js';

/** Where a suite's table `t` is: its path (from the suite file's folder) and its name in messages. */
export function tableFile(
  spec: SuiteSpec,
  t: number,
  suite: SuiteFile,
  cwd: string,
): { path: string; file: string } {
  const path = resolve(dirname(suite.path), spec.tables[t]!.path);
  return { path, file: displayPath(path, cwd) };
}

/**
 * A table read again when a run reaches its suite, a piece at a time and never whole: once
 * for its digest, which must be the one it was planned with, then for its rows, whose bytes
 * must hash as the first reading's did (`changed` otherwise, when the rows are done). A
 * 100,000-row table's 4.5 MB were held through its suite's run; at the limit, 64 MiB were.
 */
export function rereadTable(
  path: string,
  file: string,
  planned: string,
  changed: (also?: Diagnostic[]) => Error,
): TableText {
  const raw = createHash('sha256');
  let digest: string;
  try {
    digest = tableDigest(tapped(readPiecesSync(path, READ_LIMITS.table), (piece) => raw.update(piece)));
  } catch (error) {
    throw changed([unreadable(file, error)]);
  }
  if (digest !== planned) throw changed();
  const bytes = raw.digest('hex');
  return { file, read: { bytes: sameBytes(path, file, bytes, changed) }, digest };
}

function* tapped(pieces: Iterable<Buffer>, see: (piece: Buffer) => void): Generator<Buffer> {
  for (const piece of pieces) {
    see(piece);
    yield piece;
  }
}

/** The file's pieces, checked at their end to be the bytes that hashed to `digest`. */
function* sameBytes(
  path: string,
  file: string,
  digest: string,
  changed: (also?: Diagnostic[]) => Error,
): Generator<Buffer> {
  const hash = createHash('sha256');
  try {
    for (const piece of readPiecesSync(path, READ_LIMITS.table)) {
      hash.update(piece);
      yield piece;
    }
  } catch (error) {
    throw changed([unreadable(file, error)]);
  }
  if (hash.digest('hex') !== digest) throw changed();
}

function unreadable(file: string, error: unknown): Diagnostic {
  const what = error instanceof TooLargeError ? error.what : describeFsError(error);
  return { file, line: 1, column: 1, whole_file: true, message: what };
}
