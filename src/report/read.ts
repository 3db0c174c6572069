import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DriftcheckError, FileError } from '../errors.js';
import type { CaseEntry, Report, ReportHead } from '../types.js';
import { entryFromLine, type LineSuite, REPORT_SCHEMA_VERSION } from './case-line.js';
import { READ_LIMITS, readBoundedLines, readBoundedText } from '../util/bounded-read.js';
import { deeperThan, MAX_JSON_DEPTH } from '../util/json-depth.js';

export interface StoredReport {
  file: string;
  head: ReportHead;
  /** The cases in file order, read one line at a time. */
  cases(): AsyncGenerator<CaseEntry>;
}

/**
 * Opens a run's report (a run folder or a report.json path) with actionable errors: a
 * missing file says how to re-render it from the journal, a report of driftcheck 0.1
 * (schema 1, one entry per sample) says the command that converts it.
 */
export async function openReport(path: string): Promise<StoredReport> {
  const { dir, file, head } = await readReportHead(path);
  const schema = head.schema_version as number;
  if (schema < 2) {
    throw new FileError(
      file,
      `report schema ${String(head.schema_version)} is from an older driftcheck (one entry per sample); re-render it from its journal with \`driftcheck report ${dir}\`, then run this again`,
    );
  }
  if (schema > REPORT_SCHEMA_VERSION)
    throw new FileError(
      file,
      `report schema ${String(head.schema_version)} is newer than this driftcheck reads; upgrade driftcheck`,
    );
  const suites = new Map<string, LineSuite>(head.suites.map((s) => [s.suite, s]));
  const entry = (line: Record<string, unknown>) =>
    entryFromLine(line, suites.get(line.suite as string), schema);
  return { file, head, cases: () => readCases(file, entry) };
}

/**
 * A report's head (run, summary, suites), of any schema, without its cases: what a reader
 * that also takes driftcheck 0.1 reports looks at first. Errors as openReport's.
 */
export async function readReportHead(path: string): Promise<{ dir: string; file: string; head: ReportHead }> {
  const isDir = (await stat(path).catch(() => null))?.isDirectory() ?? false;
  const file = isDir ? join(path, 'report.json') : path;
  return { dir: isDir ? path : join(path, '..'), file, head: await readHead(file, isDir) };
}

/** The whole report in memory: for small reports and tests (large ones stream with openReport). */
export async function loadReport(path: string): Promise<Report> {
  const stored = await openReport(path);
  const cases: CaseEntry[] = [];
  for await (const c of stored.cases()) cases.push(c);
  return { ...stored.head, cases };
}

async function readHead(file: string, isDir: boolean): Promise<ReportHead> {
  const lines: string[] = [];
  let held = 0;
  try {
    for await (const line of readBoundedLines(file, READ_LIMITS.report)) {
      if (line === '  "cases": [' || line.startsWith('  "cases": []')) break;
      lines.push(line);
      // The head is a few kilobytes per suite; a file without the layout is read whole
      // below, within the limit of a whole read (so is what is held here).
      held += line.length;
      if (lines.length > 1_000_000 || held > READ_LIMITS.wholeReport.bytes) break;
    }
  } catch (error) {
    if (error instanceof DriftcheckError) throw error;
    throw new FileError(
      file,
      isDir
        ? 'no report.json in this run folder; render it from the journal with `driftcheck report FOLDER` (or finish the run with `driftcheck run --resume FOLDER`)'
        : 'cannot read this report',
      { cause: error },
    );
  }
  try {
    const text = lines.join('\n').replace(/,\s*$/, '');
    const head = JSON.parse(`${text}\n}`) as ReportHead;
    if (typeof head?.run?.id !== 'string') throw new Error('no run in it');
    return head;
  } catch {
    // Not in the layout driftcheck writes (edited by hand?): parse the whole file.
    return wholeHead(file);
  }
}

async function wholeHead(file: string): Promise<ReportHead> {
  try {
    const report = JSON.parse(await readBoundedText(file, READ_LIMITS.wholeReport)) as Report;
    if (typeof report?.run?.id !== 'string' || !Array.isArray(report.cases))
      throw new Error('not a driftcheck report');
    const { cases: _cases, ...head } = report;
    return head;
  } catch (error) {
    if (error instanceof DriftcheckError) throw error;
    const what = error instanceof SyntaxError ? 'not JSON' : 'not a driftcheck report';
    throw new FileError(
      file,
      `${what} (${(error as Error).message}); pass a run folder under reports/ or its report.json`,
      { cause: error },
    );
  }
}

/** A case line as the entry it stands for (schema 3 leaves out what can be restored). */
type EntryOf = (line: Record<string, unknown>) => CaseEntry;

/** A report's case that no later step can trip on: a JSON object, nested no deeper than driftcheck writes. */
function caseOf(value: unknown, file: string, where: string, entry: EntryOf): CaseEntry {
  const refuse = (why: string, cause?: unknown) =>
    new FileError(
      file,
      `${where} is not a case as driftcheck writes it (${why}); render the report again from its journal with \`driftcheck report RUN_DIR\``,
      { cause },
    );
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    deeperThan(value) ||
    typeof (value as { suite?: unknown }).suite !== 'string'
  )
    throw refuse(`not an object with its suite, or nested more than ${MAX_JSON_DEPTH} levels deep`);
  try {
    return entry(value as Record<string, unknown>);
  } catch (error) {
    // Restoring a field read one of the wrong type (a file edited by hand).
    if (error instanceof TypeError) throw refuse(`a field of the wrong type: ${error.message}`, error);
    throw error;
  }
}

async function* readCases(file: string, entry: EntryOf): AsyncGenerator<CaseEntry> {
  const reader = readBoundedLines(file, READ_LIMITS.report);
  let inCases = false;
  /** true: one case a line (as driftcheck writes it); 'started': cases read that way. */
  let layout: boolean | 'started' = false;
  let number = 0;
  for await (const line of reader) {
    number++;
    if (!inCases) {
      if (line === '  "cases": [') inCases = layout = true;
      continue;
    }
    if (line === '  ]') return;
    const text = line.trim().replace(/,$/, '');
    if (!text) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      // Re-indented by hand or by a tool (`jq .`): not one case a line. Before any case
      // was read, the whole file is parsed below; after, the file is damaged.
      if (layout === 'started')
        throw new FileError(
          file,
          `line ${number} is damaged (${(error as Error).message}); render the report again from its journal with \`driftcheck report RUN_DIR\``,
          { cause: error },
        );
      layout = false;
      break;
    }
    layout = 'started';
    yield caseOf(value, file, `line ${number}`, entry);
  }
  if (!layout) {
    // wholeHead parsed this file already: it is JSON with a cases array.
    const report = JSON.parse(await readBoundedText(file, READ_LIMITS.wholeReport)) as Report;
    for (const [i, c] of report.cases.entries()) yield caseOf(c, file, `cases[${i}]`, entry);
  }
}
