import type { Baseline, CaseEntry, ReportHead, SuiteReport } from '../types.js';

/** A suite once folded: its report entry, its cases in plan order, and the baseline they were compared with. */
export interface FoldedSuiteEvent {
  suite: SuiteReport;
  cases: readonly CaseEntry[];
  baseline: Baseline | null;
  /** Cases in the whole plan (every suite), known before the first suite is folded. */
  planned: number;
}

/**
 * What renders a run. Reporters receive finished, read-only data and never compute a
 * verdict: the fold hands them each suite as it is folded, then the finished head.
 * A file reporter writes its case parts as they come and assembles its file at the end,
 * so no reporter holds every case of a large run.
 */
export interface Reporter {
  /** When a suite's cases are final; suites arrive in plan order. */
  onSuite?(event: FoldedSuiteEvent): void | Promise<void>;
  /** Once, when every suite is folded: the run, the counts and the suites. Returns the files written. */
  onEnd?(head: ReportHead): Promise<string[]>;
  /** When the fold fails before the end: remove partial files. */
  onAbort?(): Promise<void>;
}
