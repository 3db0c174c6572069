import type { Diagnostic } from '../../types.js';
import { deeperThan } from '../../util/json-depth.js';
import { MAX_DEPTH } from '../../yaml/plain-data.js';
import { kindOf } from '../../yaml/show.js';
import { tooManyRows, type Row, type TableFormat, type TableRows } from './types.js';

/**
 * JSON Lines: one JSON object a line, its keys the columns. Values keep their JSON types,
 * so a row can carry a list of checks or a value to compare. Blank lines are skipped; a
 * line break is LF or CRLF, and a leading byte-order mark is dropped.
 */
export const jsonl: TableFormat = {
  extensions: ['.jsonl', '.ndjson'],
  readRows(text: string, file: string, maxRows: number): TableRows {
    const rows: Row[] = [];
    const diagnostics: Diagnostic[] = [];
    // The loader's decoder drops a byte-order mark; text handed over directly may still have one.
    const lines = text.replace(/^\uFEFF/, '').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const source = lines[i]!.replace(/\r$/, '');
      if (source.trim() === '') continue;
      const line = i + 1;
      if (rows.length === maxRows) {
        diagnostics.push(tooManyRows(file, line, maxRows));
        break;
      }
      const at = (column: number, message: string, hint: string) =>
        diagnostics.push({ file, line, column, message, hint });
      let value: unknown;
      try {
        value = JSON.parse(source);
      } catch (error) {
        const { message, column } = describeJsonError(error, source);
        at(
          column,
          `the row is not valid JSON: ${message}`,
          'write one JSON object per line, e.g. {"id": "a1", "text": "…"}',
        );
        continue;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        at(
          1,
          `a row must be a JSON object, got ${kindOf(value)}`,
          'write one JSON object per line: {"column": value, …}',
        );
        continue;
      }
      if (deeperThan(value, MAX_DEPTH)) {
        at(1, `the row nests more than ${MAX_DEPTH} levels deep`, 'flatten it');
        continue;
      }
      rows.push({ values: value as Record<string, unknown>, location: { file, line, column: 1 } });
    }
    return { rows, columns: null, diagnostics };
  },
};

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
