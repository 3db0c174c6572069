import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DriftcheckError, FileError } from '../../util/errors.js';
import { NOT_WRITTEN_BY_DRIFTCHECK, shapeProblem } from '../shape.js';
import type { CaseEntry, Report, ReportHead } from './types.js';
import { entryFromLine, type LineSuite, REPORT_SCHEMA_VERSION } from './case-line.js';
import { READ_LIMITS, readBoundedLines, readBoundedText } from '../../util/bounded-read.js';
import { describeFsError } from '../../yaml/read-text.js';

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
  return { file, head, cases: () => readCases(file, dir, entry) };
}

/**
 * A report's head (run, summary, suites), of any schema, without its cases: what a reader
 * that also takes driftcheck 0.1 reports looks at first. Errors as openReport's.
 */
export async function readReportHead(path: string): Promise<{ dir: string; file: string; head: ReportHead }> {
  const found = await stat(path).catch(() => null);
  if (!found)
    throw new FileError(
      path,
      'no such folder or file\n  → pass a run folder under reports/ (reports/latest is the newest), or its report.json',
    );
  const isDir = found.isDirectory();
  const file = isDir ? join(path, 'report.json') : path;
  const dir = isDir ? path : join(path, '..');
  const head = await readHead(file, isDir ? dir : null);
  // Schemas 2 and 3 are checked against the shipped schema here, once for every reader (diff,
  // baseline accept, history add, run --update-baselines); schema 1 has readers of its own.
  const schema = head.schema_version as number;
  if (schema >= 2 && schema <= REPORT_SCHEMA_VERSION) {
    const problem = shapeProblem('report', { ...head, cases: [] });
    if (problem !== null) throw new FileError(file, `${problem}; ${remedy(dir)}`);
  }
  return { dir, file, head };
}

/** What to do about a report.json driftcheck cannot read: render it again from its journal. */
function remedy(dir: string): string {
  return `${NOT_WRITTEN_BY_DRIFTCHECK}: re-render it from its journal with \`driftcheck report ${dir}\`, or pass another run folder`;
}

/** The whole report in memory: for small reports and tests (large ones stream with openReport). */
export async function loadReport(path: string): Promise<Report> {
  const stored = await openReport(path);
  const cases: CaseEntry[] = [];
  for await (const c of stored.cases()) cases.push(c);
  return { ...stored.head, cases };
}

async function readHead(file: string, dir: string | null): Promise<ReportHead> {
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
    throw new FileError(dir ?? file, await noReport(dir, error), { cause: error });
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

/**
 * Why a report cannot be read, and what to do: a folder with a journal but no report.json
 * (a killed run) is rendered again from it; a folder without either is not a run folder.
 */
async function noReport(dir: string | null, error: unknown): Promise<string> {
  if (dir === null) return `cannot read this report (${describeFsError(error)})`;
  const journal = await stat(join(dir, 'results.jsonl')).catch(() => null);
  return journal?.isFile()
    ? `no report.json in this run folder\n  → render it from its journal with \`driftcheck report ${dir}\` (or finish the run with \`driftcheck run --resume ${dir}\`)`
    : 'not a run folder: it has no report.json and no journal (results.jsonl)\n  → pass a run folder under reports/ (reports/latest is the newest)';
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

/**
 * The cases of a report, each checked against the report schema's case as it is read (one
 * held at a time; shapeProblem refuses one nested deeper than driftcheck writes), then
 * restored to the whole entry: a problem is a FileError naming the case's line or JSON
 * path, never a TypeError in whichever reader touches it first.
 */
async function* readCases(file: string, dir: string, entryOf: EntryOf): AsyncGenerator<CaseEntry> {
  let index = 0;
  let line: number | null = null;
  const checked = (raw: unknown): CaseEntry => {
    const where = line === null ? `cases[${index}]: ` : `line ${line}: `;
    const problem = shapeProblem('case', raw, `/cases/${index}`);
    if (problem !== null) throw new FileError(file, `${where}${problem}; ${remedy(dir)}`);
    let entry: CaseEntry;
    try {
      entry = entryOf(raw as Record<string, unknown>);
    } catch (error) {
      // Restoring a field read one of the wrong type (a file edited by hand).
      if (!(error instanceof TypeError)) throw error;
      throw new FileError(file, `${where}a field of the wrong type: ${error.message}; ${remedy(dir)}`, {
        cause: error,
      });
    }
    index++;
    return entry;
  };
  try {
    for await (const [at, raw] of rawCases(file, dir)) {
      line = at;
      yield checked(raw);
    }
  } catch (error) {
    if (error instanceof DriftcheckError) throw error;
    throw new FileError(
      file,
      `${error instanceof SyntaxError ? 'not JSON' : 'cannot read it'}${line === null ? '' : ` after line ${line}`} (${(error as Error).message}); ${remedy(dir)}`,
      { cause: error },
    );
  }
}

/** The raw case entries of a report in file order, with the line each is on (null when read whole). */
async function* rawCases(file: string, dir: string): AsyncGenerator<[number | null, unknown]> {
  const reader = readBoundedLines(file, READ_LIMITS.report);
  let inCases = false;
  let number = 0;
  /** true: one case a line (as driftcheck writes it); 'started': cases read that way. */
  let layout: boolean | 'started' = false;
  for await (const line of reader) {
    number++;
    if (!inCases) {
      if (line === '  "cases": [') inCases = layout = true;
      continue;
    }
    if (line === '  ]') return;
    const text = line.trim().replace(/,$/, '');
    if (!text) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(text) as unknown;
    } catch (error) {
      // Re-indented by hand or by a tool (`jq .`): not one case a line. Before any case
      // was read, the whole file is parsed below; after, the file is damaged.
      if (layout === 'started')
        throw new FileError(file, `line ${number}: damaged (${(error as Error).message}); ${remedy(dir)}`, {
          cause: error,
        });
      layout = false;
      break;
    }
    layout = 'started';
    yield [number, entry];
  }
  if (!layout) {
    // wholeHead parsed this file already: it is JSON with a cases array.
    const report = JSON.parse(await readBoundedText(file, READ_LIMITS.wholeReport)) as Report;
    for (const entry of report.cases) yield [null, entry];
  }
}
