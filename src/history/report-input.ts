import { DriftcheckError, FileError } from '../util/errors.js';
import { openReport, readReportHead } from '../stored/report/read.js';
import { READ_LIMITS, readBoundedText } from '../util/bounded-read.js';
import { NOT_WRITTEN_BY_DRIFTCHECK, shapeProblem } from '../stored/shape.js';
import { fromReportV1, type ReportV1Like } from './from-report.js';
import { historyCase, historyRun } from './from-report-v2.js';
import { monthOf } from '../stored/history/store.js';
import type { RunInfo } from '../stored/report/types.js';
import type { HistoryCaseInput, HistoryRunInput } from '../stored/history/types.js';

/** A finished run, read for the history: its record, its cases, and each suite's baseline file. */
export interface RunForHistory {
  run: HistoryRunInput;
  /** Its cases, read (again) from the report a case at a time each time this is called. */
  cases: () => AsyncGenerator<HistoryCaseInput>;
  /** `suite` → the baseline file the report names (read for its source run), or null. */
  baselines: Map<string, string | null>;
  /** The report's run as written (what it was: candidate, simulator, shard). */
  head: { run: RunInfo };
}

/**
 * Reads a run folder's report.json (or the file itself) of any schema: 2 or 3 (one entry per
 * case), its head now and its cases a case at a time when asked for, through the report
 * reader the other commands use; or 1 (driftcheck 0.1, one entry per sample), aggregated
 * here. Errors name the file and what to do (a case the reader refuses, when it is read).
 */
export async function readRunForHistory(path: string): Promise<RunForHistory> {
  const { dir, file, head } = await readReportHead(path);
  if ((head.schema_version as number) === 1) {
    let report: unknown;
    try {
      report = JSON.parse(await readBoundedText(file, READ_LIMITS.wholeReport));
    } catch (error) {
      if (error instanceof DriftcheckError) throw error;
      throw new FileError(file, `cannot read it as JSON (${(error as Error).message})`, { cause: error });
    }
    const problem = shapeProblem('report-v1', report);
    if (problem !== null)
      throw new FileError(
        file,
        `${problem}; ${NOT_WRITTEN_BY_DRIFTCHECK}: re-render it from its journal with \`driftcheck report ${dir}\``,
      );
    const v1 = report as ReportV1Like;
    checkStart(file, dir, v1.run.started_at);
    const baselines = new Map(
      v1.suites.map((s) => [s.suite, (s as { baseline?: string | null }).baseline ?? null]),
    );
    const { run, cases } = fromReportV1(v1);
    return {
      run,
      cases: async function* () {
        yield* cases;
      },
      baselines,
      head,
    };
  }
  // Schema 2 and later: one entry per case, restored by the reader the other commands use
  // (readReportHead checked the head; openReport refuses a newer schema).
  const baselines = new Map(head.suites.map((s) => [s.suite, s.baseline ?? null]));
  const report = await openReport(path);
  checkStart(file, dir, head.run.started_at);
  return {
    run: historyRun(head.run, head.suites),
    cases: async function* () {
      for await (const c of report.cases()) yield historyCase(c);
    },
    baselines,
    head,
  };
}

/**
 * The history files a run by the month it started: a start that is not a date-time (a hand
 * edit) has no month file to go to.
 */
function checkStart(file: string, dir: string, start: unknown): void {
  if (typeof start !== 'string' || monthOf(start) === null)
    throw new FileError(
      file,
      `run.started_at is ${JSON.stringify(start)}, not an ISO date-time: the history files a run by the month it started\n  → re-render it from its journal with \`driftcheck report ${dir}\``,
    );
}
