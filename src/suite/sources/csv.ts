import type { CsvError } from 'csv-parse';
import type { Diagnostic } from '../../util/errors.js';
import { csvParseLibrary } from '../../util/lazy.js';
import { show } from '../../yaml/show.js';
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
 * CSV as RFC 4180 has it, read by csv-parse (quoted fields with commas, quotes and line
 * breaks, CRLF or LF, a byte-order mark): the first row names the columns, every value is
 * text. Blank lines are skipped; a row with another number of fields than the header is
 * an error, never padded. Lines are counted here, from the byte offsets csv-parse reports,
 * because its own count goes wrong on CRLF inside a quoted field.
 */
export const csv: TableFormat = {
  extensions: ['.csv'],
  rows(table: TableBytes, file: string, maxRows: number, problems: ProblemSink): TableRows {
    const lines = new LineCounter();
    const records = csvRecords(withoutBom(table), lines);
    // The header is read now: a template's placeholders are checked against it before any row.
    // Taken by hand, not with for…of: a loop left early would close the records for the rows.
    const first = records.next();
    if (first.done) return Object.assign([], { columns: null });
    const line = lines.lineAt(lines.contentFrom(0));
    if ('error' in first.value) {
      // An unclosed quote in the header: nothing after it can be read as rows.
      problems.push({ file, line, column: 1, ...describeCsvError(first.value.error, null) });
      records.return(undefined);
      return Object.assign([], { columns: null });
    }
    const columns = first.value.record;
    for (const d of headerProblems(columns, file, line)) problems.push(d);
    const rows = csvRows(records, columns, first.value.end, { file, maxRows, lines, problems });
    return Object.assign(rows, { columns });
  },
};

/** A record csv-parse made, with the byte offset it ends at, or a record it skipped as malformed. */
type CsvEvent = { record: string[]; end: number } | { error: CsvError };

/** How much of the text csv-parse is given at a time: the records of one piece are all that is held. */
const WRITE_BYTES = 64 * 1024;

/**
 * The records of a CSV text in file order, parsed a piece at a time as they are asked for
 * (csv-parse's Parser, written to synchronously: it parses each write at once, and the
 * records are taken in its `on_record` hook, so none waits in the stream). Each piece is
 * handed to `lines` before it is parsed.
 */
function* csvRecords(pieces: TableBytes, lines: LineCounter): Generator<CsvEvent> {
  const pending: CsvEvent[] = [];
  const parser = new (csvParseLibrary().Parser)({
    bom: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_record: (record: string[], context) => {
      pending.push({ record, end: context.bytes });
      // Taken here, not pushed into the stream.
      return null;
    },
    on_skip: (error) => {
      if (error) pending.push({ error });
    },
  });
  // Every record error is skipped to on_skip; an error here is csv-parse's own, thrown below.
  parser.on('error', () => {});
  for (const piece of pieces) {
    lines.push(piece);
    for (let at = 0; at < piece.length; at += WRITE_BYTES) {
      parser.write(piece.subarray(at, at + WRITE_BYTES));
      if (parser.errored) throw parser.errored;
      yield* pending;
      pending.length = 0;
    }
  }
  // The end flushes the last record (one with no line break after it) and an unclosed quote.
  parser.end();
  if (parser.errored) throw parser.errored;
  yield* pending;
}

/** The rows after the header, each made from its record when it is asked for. */
function* csvRows(
  records: Generator<CsvEvent>,
  columns: string[],
  from: number,
  at: { file: string; maxRows: number; lines: LineCounter; problems: ProblemSink },
): Generator<Row> {
  const { file, maxRows, lines, problems } = at;
  let rows = 0;
  let end = from;
  // Left early (a lost row boundary, too many rows, a reader that stops), the records are
  // closed: a run's table is read from an open file.
  try {
    for (let next = records.next(); !next.done; next = records.next()) {
      const event = next.value;
      const line = lines.lineAt(lines.contentFrom(end));
      if ('error' in event) {
        problems.push({ file, line, column: 1, ...describeCsvError(event.error, columns) });
        // After a stray or unclosed quote csv-parse has lost the row boundaries: what follows is not data.
        if (event.error.code !== 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH') return;
        end = Number((event.error as { bytes?: unknown }).bytes);
        continue;
      }
      end = event.end;
      if (rows === maxRows) {
        problems.push(tooManyRows(file, line, maxRows));
        return;
      }
      rows++;
      yield {
        values: Object.fromEntries(event.record.map((value, i) => [columns[i]!, value])),
        location: { file, line, column: 1 },
      };
    }
  } finally {
    records.return?.(undefined);
  }
}

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

/**
 * 1-based lines of byte offsets, for offsets asked in increasing order: one pass over the
 * pieces handed to it, each let go once the count has passed it.
 */
class LineCounter {
  private readonly pieces: Buffer[] = [];
  /** The offset of the first piece held. */
  private base = 0;
  /** The offset past the last piece handed over. */
  private end = 0;
  private offset = 0;
  private line = 1;

  push(piece: Buffer): void {
    this.pieces.push(piece);
    this.end += piece.length;
  }

  /** The first offset at or after `from` that is not a line break (blank lines are skipped). */
  contentFrom(from: number): number {
    let at = from;
    for (let b = this.byteAt(at); b === 0x0a || b === 0x0d; b = this.byteAt(at)) at++;
    return at;
  }

  lineAt(target: number): number {
    while (this.offset < target && this.offset < this.end) {
      const piece = this.pieces[0]!;
      const from = this.offset - this.base;
      if (from >= piece.length) {
        this.pieces.shift();
        this.base += piece.length;
        continue;
      }
      const to = Math.min(piece.length, from + (target - this.offset));
      for (let k = from; k < to; k++) {
        const b = piece[k];
        // LF, CRLF (counted at its LF) and a lone CR each end a line.
        if (b === 0x0a) this.line++;
        else if (
          b === 0x0d &&
          (k + 1 < piece.length ? piece[k + 1] : this.byteAt(this.base + k + 1)) !== 0x0a
        )
          this.line++;
      }
      this.offset += to - from;
    }
    return this.line;
  }

  /** The byte at an offset not let go of yet; undefined past the pieces handed over. */
  private byteAt(offset: number): number | undefined {
    let at = offset - this.base;
    for (const piece of this.pieces) {
      if (at < piece.length) return piece[at];
      at -= piece.length;
    }
    return undefined;
  }
}
