import type { Diagnostic, SourceLocation } from '../../util/errors.js';

/** One row of a case source: its values by column name, and where it is written. */
export interface Row {
  values: Record<string, unknown>;
  location: SourceLocation;
}

/** Where a reader puts the problems it meets, as it meets them (an array will do). */
export type ProblemSink = Pick<Diagnostic[], 'push'>;

/**
 * A table's rows as its format reads them: one at a time, in file order, each made only
 * when it is asked for, so that no list of a whole table's rows is ever built. Iterated
 * once. A malformed row is no row: it goes to the reader's problems (with its file and
 * line) as the reading passes it, before the next row is given.
 */
export interface TableRows extends Iterable<Row> {
  /**
   * The column names when the format declares them once (a CSV header, read when the
   * reader is made); null when each row has its own (JSON Lines), or no header was read.
   */
  readonly columns: string[] | null;
}

/**
 * A table's bytes in file order, a piece at a time: pieces of any size, a row (and a
 * character, and a byte-order mark) may span several; each piece's memory is its own (a
 * format may keep it). Iterated once. At load time the whole
 * file is one piece; a run reads the table again from disk a piece at a time, holding none
 * of it past the rows it is reading.
 */
export type TableBytes = Iterable<Buffer>;

/**
 * A table format: the one module a new format needs, registered in TABLE_FORMATS. Pure:
 * the loader reads the file (bounded, checked to be UTF-8) and hands over its bytes, which
 * the format decodes a row at a time (a leading byte-order mark is for it to drop:
 * withoutBom).
 */
export interface TableFormat {
  /** File name endings that select it when a table gives no `format:`. */
  extensions: readonly string[];
  /**
   * The text's rows, read lazily: at most `maxRows` (one more is reported as too many, and
   * nothing past it is read). Problems go to `problems` as they are met.
   */
  rows(bytes: TableBytes, file: string, maxRows: number, problems: ProblemSink): TableRows;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** A table's bytes without a leading UTF-8 byte-order mark (split between pieces or not). */
export function* withoutBom(pieces: TableBytes): Generator<Buffer> {
  let head: Buffer | null = null;
  let decided = false;
  for (const piece of pieces) {
    if (decided) {
      yield piece;
      continue;
    }
    head = head === null ? piece : Buffer.concat([head, piece]);
    // Fewer than three bytes that begin a mark: the next piece decides.
    if (head.length < 3 && BOM.subarray(0, head.length).equals(head)) continue;
    decided = true;
    yield head.subarray(0, 3).equals(BOM) ? head.subarray(3) : head;
  }
  if (!decided && head !== null) yield head;
}

/** The diagnostic for a table with more rows than a suite may plan. */
export function tooManyRows(file: string, line: number, maxRows: number): Diagnostic {
  return {
    file,
    line,
    column: 1,
    message: `the table has more than ${maxRows} rows`,
    hint: 'split it over several suites: a suite plans at most that many samples',
  };
}
