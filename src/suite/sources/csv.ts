import { type CsvError, parse } from 'csv-parse/sync';
import type { Diagnostic } from '../../types.js';
import { show } from '../../yaml/show.js';
import { tooManyRows, type Row, type TableFormat, type TableRows } from './types.js';

/**
 * CSV as RFC 4180 has it, read by csv-parse (quoted fields with commas, quotes and line
 * breaks, CRLF or LF, a byte-order mark): the first row names the columns, every value is
 * text. Blank lines are skipped; a row with another number of fields than the header is
 * an error, never padded. Lines are counted here, from the byte offsets csv-parse reports,
 * because its own count goes wrong on CRLF inside a quoted field.
 */
export const csv: TableFormat = {
  extensions: ['.csv'],
  readRows(text: string, file: string, maxRows: number): TableRows {
    const bytes = Buffer.from(text, 'utf8');
    const lines = lineCounter(bytes);
    // Records and skipped (malformed) records in file order, each with the offset it ends at.
    const events: ({ record: string[]; end: number } | { error: CsvError })[] = [];
    parse(bytes, {
      bom: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      // The header, the rows a suite may hold, and one more to tell there are too many.
      to: maxRows + 2,
      on_record: (record: string[], context) => {
        events.push({ record, end: context.bytes });
        return record;
      },
      on_skip: (error) => {
        if (error) events.push({ error });
      },
    });
    const diagnostics: Diagnostic[] = [];
    const rows: Row[] = [];
    let columns: string[] | null = null;
    let end = 0;
    for (const event of events) {
      const line = lines.lineAt(lines.contentFrom(end));
      if ('error' in event) {
        diagnostics.push({ file, line, column: 1, ...describeCsvError(event.error, columns) });
        // After a stray or unclosed quote csv-parse has lost the row boundaries: what follows is not data.
        if (event.error.code !== 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH') break;
        end = Number((event.error as { bytes?: unknown }).bytes);
        continue;
      }
      end = event.end;
      if (columns === null) {
        columns = event.record;
        diagnostics.push(...headerProblems(columns, file, line));
        continue;
      }
      if (rows.length === maxRows) {
        diagnostics.push(tooManyRows(file, line, maxRows));
        break;
      }
      const header = columns;
      rows.push({
        values: Object.fromEntries(event.record.map((value, i) => [header[i]!, value])),
        location: { file, line, column: 1 },
      });
    }
    return { rows, columns, diagnostics };
  },
};

/** The header's names must be usable as placeholders: none empty, none twice. */
function headerProblems(columns: string[], file: string, line: number): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  columns.forEach((name, i) => {
    if (name.trim() === '') {
      out.push({
        file,
        line,
        column: 1,
        message: `column ${i + 1} of the header row has no name`,
        hint: 'the first row names the columns: give every column a name',
      });
    } else if (seen.has(name)) {
      out.push({
        file,
        line,
        column: 1,
        message: `the header row names column ${show(name)} twice`,
        hint: 'give each column its own name',
      });
    }
    seen.add(name);
  });
  return out;
}

/** csv-parse's errors in a suite author's words. */
function describeCsvError(error: CsvError, columns: string[] | null): { message: string; hint: string } {
  const quoting =
    'a field holding a quote, comma or line break is quoted whole, its quotes doubled: "say ""hi"""';
  switch (error.code) {
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH': {
      const fields = (error as unknown as { record?: unknown[] }).record?.length;
      return {
        message: `the row has ${fields ?? 'another number of'} fields, the header ${columns?.length ?? 'another number'}`,
        hint: `every row has one field per column; ${quoting}`,
      };
    }
    case 'CSV_QUOTE_NOT_CLOSED':
      return {
        message: 'a quoted field that starts in this row is never closed',
        hint: `close the quote; ${quoting}`,
      };
    case 'INVALID_OPENING_QUOTE':
    case 'CSV_INVALID_CLOSING_QUOTE':
      return { message: 'a quote in the middle of a field', hint: quoting };
    default:
      return { message: `malformed CSV: ${error.message}`, hint: quoting };
  }
}

/** 1-based lines of byte offsets, for offsets asked in increasing order (one pass over the bytes). */
function lineCounter(bytes: Buffer) {
  let offset = 0;
  let line = 1;
  return {
    /** The first offset at or after `from` that is not a line break (blank lines are skipped). */
    contentFrom(from: number): number {
      let at = from;
      while (at < bytes.length && (bytes[at] === 0x0a || bytes[at] === 0x0d)) at++;
      return at;
    },
    lineAt(target: number): number {
      for (; offset < target && offset < bytes.length; offset++) {
        const b = bytes[offset];
        // LF, CRLF (counted at its LF) and a lone CR each end a line.
        if (b === 0x0a || (b === 0x0d && bytes[offset + 1] !== 0x0a)) line++;
      }
      return line;
    },
  };
}
