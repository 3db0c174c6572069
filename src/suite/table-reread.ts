import { dirname, resolve } from 'node:path';
import { TextDecoder } from 'node:util';
import { TooLargeError } from '../errors.js';
import type { Diagnostic } from '../types.js';
import { PIECE_BYTES, READ_LIMITS, readPiecesSync } from '../util/bounded-read.js';
import { sha256 } from '../util/sha256.js';
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
 * The sha256 (hex) of each piece of a table's bytes as validated, in the pieces a run reads
 * it in again (readPiecesSync's): what rereadTable checks each piece against.
 */
export function pieceHashes(bytes: Buffer): string[] {
  const hashes: string[] = [];
  for (let at = 0; at < bytes.length; at += PIECE_BYTES)
    hashes.push(sha256(bytes.subarray(at, at + PIECE_BYTES)));
  return hashes;
}

/**
 * A table read again when a run reaches its suite, a piece at a time and never whole: each
 * piece is checked against the hash of the same piece as validated (`pieces`) before any
 * row of it is read. A table changed while its suite runs (its rows are read as they are
 * sent, for hours maybe) is refused at the first piece that changed: no case is ever made
 * from bytes other than those planned. A 100,000-row table's 4.5 MB were held through its
 * suite's run; at the limit, 64 MiB were. Hashed again whole for its digest first, as it
 * was, the table was read twice each time and, at the limit, stalled the requests in flight
 * for as long as that took.
 */
export function rereadTable(
  path: string,
  file: string,
  then: { digest: string; pieces: readonly string[] },
  changed: (also?: Diagnostic[]) => Error,
): TableText {
  return { file, read: { bytes: samePieces(path, file, then.pieces, changed) }, digest: then.digest };
}

/** The file's pieces, each given only once it hashes as the same piece did (`hashes`). */
function* samePieces(
  path: string,
  file: string,
  hashes: readonly string[],
  changed: (also?: Diagnostic[]) => Error,
): Generator<Buffer> {
  let count = 0;
  const pieces = readPiecesSync(path, READ_LIMITS.table);
  try {
    for (;;) {
      let next: IteratorResult<Buffer>;
      try {
        next = pieces.next();
      } catch (error) {
        throw changed([unreadable(file, error)]);
      }
      if (next.done) break;
      if (hashes[count++] !== sha256(next.value)) throw changed();
      yield next.value;
    }
    if (count !== hashes.length) throw changed();
  } finally {
    // Closes the file when the rows stop early too.
    pieces.return(undefined);
  }
}

/**
 * A table read again where nothing kept the hashes of its pieces (a journal folded on its
 * own: `report`, `merge`, `diff`, and a run's report of its own table cases), never whole:
 * read once for its digest, which must be `digest`, keeping a hash of each piece, then given
 * a piece at a time, each checked against its hash. Read whole, a table at the limit put
 * 64 MiB on the fold of its suite. `changed` makes the error for a table that is not the
 * one planned (with a diagnostic when it cannot be read).
 */
export function readTableAgain(
  path: string,
  file: string,
  digest: string,
  changed: (also?: Diagnostic[]) => Error,
): Iterable<Buffer> {
  const hashes: string[] = [];
  let now: string;
  try {
    now = tableDigest(tapped(readPiecesSync(path, READ_LIMITS.table), (piece) => hashes.push(sha256(piece))));
  } catch (error) {
    throw changed([unreadable(file, error)]);
  }
  if (now !== digest) {
    // Not the bytes planned: say what is wrong with them now, when something is.
    const wrong = textProblem(path, file);
    throw changed(wrong ? [wrong] : []);
  }
  return samePieces(path, file, hashes, changed);
}

/** What keeps a file from being a table's text (readUtf8File's words), read a piece at a time; null when nothing does. */
function textProblem(path: string, file: string): Diagnostic | null {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let valid = true;
  try {
    for (const piece of readPiecesSync(path, READ_LIMITS.table)) {
      if (piece.includes(0))
        return problem(file, 'binary file (contains NUL bytes)', 'point driftcheck at a table');
      if (valid) valid = decodes(utf8, piece);
    }
  } catch (error) {
    return unreadable(file, error);
  }
  return valid && decodes(utf8) ? null : problem(file, 'file is not valid UTF-8', 're-save it as UTF-8');
}

/** Whether the bytes so far decode as UTF-8 (`piece` absent: the end). */
function decodes(utf8: TextDecoder, piece?: Buffer): boolean {
  try {
    if (piece) utf8.decode(piece, { stream: true });
    else utf8.decode();
    return true;
  } catch {
    return false;
  }
}

function problem(file: string, message: string, hint: string): Diagnostic {
  return { file, line: 1, column: 1, whole_file: true, message, hint };
}

function* tapped(pieces: Iterable<Buffer>, see: (piece: Buffer) => void): Generator<Buffer> {
  for (const piece of pieces) {
    see(piece);
    yield piece;
  }
}

function unreadable(file: string, error: unknown): Diagnostic {
  if (error instanceof TooLargeError) return problem(file, error.what, error.remedy);
  if ((error as NodeJS.ErrnoException | null)?.code === 'EISDIR')
    return problem(file, 'is a folder, not a file', 'name a table');
  return problem(file, describeFsError(error), 'check the path and its permissions');
}
