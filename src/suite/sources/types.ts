import type { Diagnostic, SourceLocation } from '../../types.js';

/** One row of a case source: its values by column name, and where it is written. */
export interface Row {
  values: Record<string, unknown>;
  location: SourceLocation;
}

/** What a table format makes of a file's text. */
export interface TableRows {
  /** The rows in file order (none past a problem that makes the rest unreadable). */
  rows: Row[];
  /** The column names when the format declares them once (a CSV header); null when each row has its own (JSON Lines). */
  columns: string[] | null;
  /** Every malformed row, with its file and line. */
  diagnostics: Diagnostic[];
}

/**
 * A table format: the one module a new format needs, registered in TABLE_FORMATS. Pure:
 * the loader reads the file (bounded) and hands over its text.
 */
export interface TableFormat {
  /** File name endings that select it when a table gives no `format:`. */
  extensions: readonly string[];
  /** Splits the text into rows, at most `maxRows` (one more is reported as too many). */
  readRows(text: string, file: string, maxRows: number): TableRows;
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
