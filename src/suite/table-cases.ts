import type { SuiteTable } from './types.js';
import type { Diagnostic } from '../util/errors.js';
import { didYouMean } from '../util/did-you-mean.js';
import { ajvDiagnostics } from '../yaml/ajv-diagnostics.js';
import { ownStrings } from '../yaml/own-strings.js';
import { show } from '../yaml/show.js';
import { caseProblems } from './case-problems.js';
import type { ExpandOptions, TableText } from './expand.js';
import { explainId } from './ids.js';
import { MAX_SUITE_SAMPLES } from './repeat-limits.js';
import { TABLE_FORMATS, tableDigest } from './sources/index.js';
import type { Row } from './sources/types.js';
import type { TableSpec } from './spec.js';
import { type CaseTemplate, compileTemplate, isRowProblem } from './template.js';
import { caseValidator } from './validate-ajv.js';

/** Rows with problems listed per table before the rest are counted. */
const MAX_ROWS_LISTED = 20;

/** What reading a table leaves besides its rows: its problems and, once read, its summary. */
export interface TableFound {
  /** Every problem, the table's rows' at most MAX_ROWS_LISTED lines then one counting the rest. */
  problems: Diagnostic[];
  tables: SuiteTable[];
}

/**
 * One table's cases, as rows whose values are the cases, one at a time: its rows read by
 * its format, each filled into the template and held to the schema and rules of a written
 * case. Every row is read and checked, whatever the others hold; every problem names the
 * table file and the row's line (a placeholder the header has no column for: where it is
 * written), and goes to `found.problems`; once the last row is read the table's summary
 * goes to `found.tables`. A row with problems makes no case.
 */
export function* tableCases(
  table: TableSpec,
  input: TableText | undefined,
  options: ExpandOptions,
  found: TableFound,
): Generator<Row> {
  // Where the suite names the table is located only for a message that says it.
  const named = () => `the table is named at ${table.location.file}:${table.location.line}`;
  if (!input) {
    const message = `table ${show(table.path)} was not read`;
    found.problems.push({ ...table.location, message, hint: 'loadSuites reads the tables of a suite' });
    return;
  }
  const { file, read: text } = input;
  if (text.diagnostic) {
    const d = text.diagnostic;
    found.problems.push({ ...d, hint: d.hint ? `${d.hint} (${named()})` : named() });
    return;
  }
  const digest = input.digest ?? tableDigest(text.bytes);
  const listed = new ListedProblems(found.problems);
  const read = TABLE_FORMATS[table.format].rows(text.bytes, file, MAX_SUITE_SAMPLES, listed);
  // Every row would miss the same column: said once, where the placeholder is written.
  const unknown = read.columns ? unknownColumns(table, read.columns, file) : [];
  found.problems.push(...unknown);
  // The template read once for the table, not once a row.
  const template = compileTemplate(table.template);
  let rows = 0;
  let rowsRead = 0;
  for (const row of read) {
    rowsRead++;
    // With a column unknown no row can make its case; the rest are still read for their problems.
    if (unknown.length > 0) continue;
    const made = rowCase(row, table, template, options);
    if (made.problems.length > 0) {
      for (const d of made.problems) listed.push(d);
      continue;
    }
    rows++;
    // The rows that do make cases go on, so that duplicate ids among them are found too.
    yield { values: made.value, location: row.location };
  }
  // No row read and none malformed (no row read means no case problem either).
  if (rowsRead === 0 && listed.count === 0) {
    found.problems.push({
      file,
      line: 1,
      column: 1,
      message: read.columns ? 'the table has a header row but no rows' : 'the table has no rows',
      hint: `an empty table would add no case and pass silently; add rows or remove it (${named()})`,
    });
  }
  listed.close();
  if (unknown.length === 0) found.tables.push({ file, format: table.format, rows, digest });
}

/**
 * The problems of the first MAX_ROWS_LISTED rows with any, and one line counting the rest
 * at the first row not listed: a broken template (or a file that is not a table) breaks
 * every row alike, and 100,000 lines of it help nobody. Rows come in file order, so this
 * holds the listed problems and a count, never the rest.
 */
class ListedProblems {
  /** Problems pushed, listed or not. */
  count = 0;
  private lines = 0;
  private lastLine = Number.NaN;
  private cut: Diagnostic | undefined;

  constructor(private readonly out: Diagnostic[]) {}

  push(...found: Diagnostic[]): number {
    for (const d of found) {
      this.count++;
      if (d.line !== this.lastLine) {
        this.lines++;
        this.lastLine = d.line;
      }
      if (this.lines <= MAX_ROWS_LISTED) this.out.push(d);
      else if (!this.cut) this.cut = d;
    }
    return this.count;
  }

  /** The line counting the rows not listed, at the first of them. */
  close(): void {
    if (!this.cut) return;
    this.out.push({
      ...this.cut,
      message: `and ${this.lines - MAX_ROWS_LISTED} more rows of this table with problems, from this one on`,
      hint: `the first ${MAX_ROWS_LISTED} are listed; fix those (often it is the template) and validate again`,
    });
  }
}

/** A format with a header (CSV): each placeholder must name one of its columns, reported where the placeholder is. */
function unknownColumns(table: TableSpec, columns: readonly string[], file: string): Diagnostic[] {
  return table.placeholders
    .filter((p) => !columns.includes(p.name))
    .map((p) => {
      const guess = didYouMean(p.name, columns);
      return {
        ...p.location,
        message: `placeholder {{${p.name}}} names no column of ${file}`,
        hint: guess ? `did you mean {{${guess}}}?` : `its columns (header row): ${columns.join(', ')}`,
      };
    });
}

/** One row filled into the template, and what is wrong with the case it makes (at the row). */
function rowCase(
  row: Row,
  table: TableSpec,
  template: CaseTemplate,
  options: ExpandOptions,
): { value: Record<string, unknown>; problems: Diagnostic[] } {
  const filled = template.fill(row.values);
  if (filled.missing) {
    const keys = Object.keys(row.values);
    const problems = filled.missing.map((name): Diagnostic => {
      const at = table.placeholders.find((p) => p.name === name)!.location;
      const guess = didYouMean(name, keys);
      return {
        ...row.location,
        message: `the row has no ${show(name)} for the placeholder {{${name}}} at ${at.file}:${at.line}:${at.column}`,
        hint: guess ? `did you mean {{${guess}}}?` : `add "${name}" to the row, or change the placeholder`,
      };
    });
    return { value: {}, problems };
  }
  // Own strings: a case must not keep the table's whole text alive (see ownStrings).
  const value = ownStrings(filled.value) as Record<string, unknown>;
  const about = `case ${typeof value.id === 'string' ? show(value.id) : '(no id)'} from this row: `;
  const problems: Diagnostic[] = [];
  const validate = caseValidator();
  if (!validate(value)) {
    // Rows have no positions inside them: every schema problem is at the row.
    const located = { file: row.location.file, data: value, locate: () => row.location };
    const translated = ajvDiagnostics(validate.errors ?? [], located, {
      rootName: 'the case',
      patterns: { id: explainId },
      // The template's own problems are said once, where it is written (suiteProblems).
      keep: (e) => isRowProblem(table.placeholders, e.instancePath, e.keyword),
    });
    for (const d of translated) problems.push({ ...d, message: about + d.message });
  }
  for (const p of caseProblems(value, '', options, options.request))
    if (isRowProblem(table.placeholders, p.pointer))
      problems.push({
        ...row.location,
        message: about + p.message,
        hint: p.hint,
        ...(p.severity ? { severity: p.severity } : {}),
      });
  return { value, problems };
}
