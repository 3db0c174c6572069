import type { BaselineHead } from '../stored/baseline/suite-baseline.js';
import type { Baseline, BaselineCase } from '../stored/baseline/types.js';
import type { CaseEntry, ReportHead, SuiteReport } from '../stored/report/types.js';

/** A suite once its verdicts are known: its report entry and the baseline its cases were compared with. */
export interface SuiteEvent {
  suite: SuiteReport;
  /** The baseline's own fields (its source run, model); each case's entry comes with the case. */
  baseline: BaselineHead | null;
  /** Cases in the whole plan (every suite), known before the first suite is folded. */
  planned: number;
}

/** One finished case of a suite, in plan order. */
interface CaseEvent extends SuiteEvent {
  entry: CaseEntry;
  /** The case's baseline entry, when its suite's baseline has one. */
  base: BaselineCase | undefined;
}

/** A suite once folded: its report entry, its cases in plan order, and the baseline they were compared with. */
export interface FoldedSuiteEvent extends Omit<SuiteEvent, 'baseline'> {
  cases: readonly CaseEntry[];
  baseline: Baseline | null;
}

/**
 * What renders a run. Reporters receive finished, read-only data and never compute a
 * verdict. The fold hands them each suite's cases one at a time (`onCase`, between
 * `onSuiteStart` and `onSuiteEnd`), then the finished head: a suite's entries are never
 * all in memory, so a reporter must not gather them either. A file reporter writes its case
 * parts as they come and assembles its file at the end.
 */
export interface Reporter {
  /** A suite's verdicts are known; its cases follow. Suites arrive in plan order. */
  onSuiteStart?(event: SuiteEvent): void | Promise<void>;
  /** One case of the suite last started, in plan order. */
  onCase?(event: CaseEvent): void | Promise<void>;
  /** Every case of the suite has been handed over. */
  onSuiteEnd?(event: SuiteEvent): void | Promise<void>;
  /**
   * A suite with all its cases in one array, after its onSuiteEnd. For small runs and
   * library callers only: the fold gathers the array just for a reporter that has this
   * hook, which holds a whole suite in memory.
   */
  onSuite?(event: FoldedSuiteEvent): void | Promise<void>;
  /** Once, when every suite is folded: the run, the counts and the suites. Returns the files written. */
  onEnd?(head: ReportHead): Promise<string[]>;
  /** When the fold fails before the end: remove partial files. */
  onAbort?(): Promise<void>;
}
