import { deeperThan } from '../../util/json-depth.js';
import { MAX_DEPTH } from '../../yaml/plain-data.js';
import { kindOf } from '../../yaml/show.js';
import {
  type ProblemSink,
  tooManyRows,
  type Row,
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
  rows(bytes: Buffer, file: string, maxRows: number, problems: ProblemSink): TableRows {
    return Object.assign(jsonlRows(withoutBom(bytes), file, maxRows, problems), { columns: null });
  },
};

/** The rows of a JSON Lines table, a line at a time (each line decoded as it is reached, the bytes never split whole). */
function* jsonlRows(bytes: Buffer, file: string, maxRows: number, problems: ProblemSink): Generator<Row> {
  let rows = 0;
  let start = 0;
  for (let line = 1; start <= bytes.length; line++) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    const source = bytes.toString('utf8', start, bytes[end - 1] === 0x0d && end > start ? end - 1 : end);
    start = end + 1;
    if (source.trim() === '') continue;
    if (rows === maxRows) {
      problems.push(tooManyRows(file, line, maxRows));
      return;
    }
    const value = parseRow(source, file, line, problems);
    if (value === undefined) continue;
    rows++;
    yield { values: value, location: { file, line, column: 1 } };
  }
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
    const { message, column } = describeJsonError(error, source);
    return at(
      column,
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

/** V8's JSON.parse message without the echoed input, and the column it names (1 when it names none). */
function describeJsonError(error: unknown, source: string): { message: string; column: number } {
  const text = error instanceof Error ? error.message : String(error);
  // Node 20: "… in JSON at position 12"; later versions: "… (line 1 column 13)".
  const position = /at position (\d+)/.exec(text);
  const lineColumn = /\(line \d+ column (\d+)\)/.exec(text);
  const column = position
    ? Number(position[1]) + 1
    : lineColumn
      ? Number(lineColumn[1])
      : text.includes('Unexpected end of JSON input')
        ? source.length + 1
        : 1;
  const message = text
    .replace(/, "[\s\S]*" is not valid JSON$/, '')
    .replace(/ in JSON at position \d+.*$/, '')
    .replace(/ \(line \d+ column \d+\)$/, '');
  return { message, column };
}
