import { deeperThan } from '../../util/json-depth.js';
import { MAX_DEPTH } from '../../yaml/plain-data.js';
import { kindOf } from '../../yaml/show.js';
import { describeJsonError } from '../../yaml/json-error.js';
import {
  type ProblemSink,
  tooManyRows,
  type Row,
  type TableBytes,
  type TableFormat,
  type TableRows,
  withoutBom,
} from './types.js';

/**
 * JSON Lines: one JSON object a line, its keys the columns. Values keep their JSON types,
 * so a row can carry a list of checks or a value to compare. Blank lines are skipped; a
 * line break is LF or CRLF, and a leading byte-order mark is dropped.
 */
export const jsonl: TableFormat = {
  extensions: ['.jsonl', '.ndjson'],
  rows(bytes: TableBytes, file: string, maxRows: number, problems: ProblemSink): TableRows {
    return Object.assign(jsonlRows(withoutBom(bytes), file, maxRows, problems), { columns: null });
  },
};

/**
 * The rows of a JSON Lines table, a line at a time: each line decoded as it is reached, from
 * the piece it is in (a line that spans pieces is joined first), the bytes never split whole.
 */
function* jsonlRows(
  pieces: TableBytes,
  file: string,
  maxRows: number,
  problems: ProblemSink,
): Generator<Row> {
  let rows = 0;
  let line = 1;
  /** The start of a line the pieces before ended in. */
  let carry: Buffer[] = [];
  /** The row of one line's bytes (without its LF), or null; false once past maxRows. */
  const rowOf = (bytes: Buffer): Row | null | false => {
    const at = line++;
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    const source = bytes.toString('utf8', 0, end);
    if (source.trim() === '') return null;
    if (rows === maxRows) {
      problems.push(tooManyRows(file, at, maxRows));
      return false;
    }
    const value = parseRow(source, file, at, problems);
    if (value === undefined) return null;
    rows++;
    return { values: value, location: { file, line: at, column: 1 } };
  };
  for (const piece of pieces) {
    let start = 0;
    for (let newline = piece.indexOf(0x0a); newline !== -1; newline = piece.indexOf(0x0a, start)) {
      const last = piece.subarray(start, newline);
      const bytes = carry.length === 0 ? last : Buffer.concat([...carry, last]);
      carry = [];
      start = newline + 1;
      const row = rowOf(bytes);
      if (row === false) return;
      if (row) yield row;
    }
    // Joined once, at the line's end: a line over many pieces is not copied again per piece.
    if (start < piece.length) carry.push(piece.subarray(start));
  }
  const row = rowOf(Buffer.concat(carry));
  if (row) yield row;
}

/** One line's row, or undefined when it is none (its problem given). */
function parseRow(
  source: string,
  file: string,
  line: number,
  problems: ProblemSink,
): Record<string, unknown> | undefined {
  const at = (column: number, message: string, hint: string) => {
    problems.push({ file, line, column, message, hint });
    return undefined;
  };
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    const { message, offset } = describeJsonError(error, source);
    return at(
      offset + 1,
      `the row is not valid JSON: ${message}`,
      'write one JSON object per line, e.g. {"id": "a1", "text": "…"}',
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return at(
      1,
      `a row must be a JSON object, got ${kindOf(value)}`,
      'write one JSON object per line: {"column": value, …}',
    );
  }
  if (deeperThan(value, MAX_DEPTH))
    return at(1, `the row nests more than ${MAX_DEPTH} levels deep`, 'flatten it');
  return value as Record<string, unknown>;
}
