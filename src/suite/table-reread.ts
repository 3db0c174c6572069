import { dirname, resolve } from 'node:path';
import { TooLargeError } from '../util/errors.js';
import type { Diagnostic } from '../util/errors.js';
import { PIECE_BYTES, READ_LIMITS, readPiecesSync } from '../util/bounded-read.js';
import { sha256 } from '../util/sha256.js';
import { displayPath } from '../yaml/display-path.js';
import { isFsError, readFailure, readUtf8File } from '../yaml/read-text.js';
import type { SuiteFile } from './expand-paths.js';
import { TABLE_FILE, tableDigest } from './sources/index.js';
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
 * it in again (readPiecesSync's): what checkedPieces checks each piece against.
 */
export function pieceHashes(bytes: Buffer): string[] {
  const hashes: string[] = [];
  for (let at = 0; at < bytes.length; at += PIECE_BYTES)
    hashes.push(sha256(bytes.subarray(at, at + PIECE_BYTES)));
  return hashes;
}

/**
 * A table read again, a piece at a time and never whole: each piece given only once it
 * hashes as the same piece did when it was read before (`hashes`, in pieceHashes' pieces),
 * so a table changed meanwhile (a run reads its rows as it sends them, for hours maybe) is
 * refused at the first piece that changed, and nothing is ever made from bytes other than
 * those planned. Read whole, a 100,000-row table's 4.5 MB were held through its suite's run,
 * 64 MiB at the limit; hashed whole again for its digest first, it was read twice each time
 * and, at the limit, stalled the requests in flight for as long as that took. `changed`
 * makes the error for a table that is not the one planned (with why, when it cannot be read).
 */
export function* checkedPieces(
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
        if (!isFsError(error) && !(error instanceof TooLargeError)) throw error;
        throw changed([readFailure(file, error, TABLE_FILE)]);
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
 * own: `report`, `merge`, `diff`): read once for its digest, which must be `digest`, keeping
 * the hash of each piece, then given as checkedPieces gives it. A table that is not the one
 * planned is refused with what is wrong with it now, in the words validation gives.
 */
export async function readTableAgain(
  path: string,
  file: string,
  digest: string,
  changed: (also?: Diagnostic[]) => Error,
): Promise<Iterable<Buffer>> {
  const hashes: string[] = [];
  let now: string | null = null;
  try {
    now = tableDigest(tapped(readPiecesSync(path, READ_LIMITS.table), (piece) => hashes.push(sha256(piece))));
  } catch (error) {
    // Worded below, by the read that says what is wrong with the file.
    if (!isFsError(error) && !(error instanceof TooLargeError)) throw error;
  }
  if (now !== digest) {
    const read = await readUtf8File(path, file, READ_LIMITS.table, TABLE_FILE);
    throw changed(read.diagnostic ? [read.diagnostic] : []);
  }
  return checkedPieces(path, file, hashes, changed);
}

function* tapped(pieces: Iterable<Buffer>, see: (piece: Buffer) => void): Generator<Buffer> {
  for (const piece of pieces) {
    see(piece);
    yield piece;
  }
}
