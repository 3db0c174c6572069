import type { BaselineHead } from '../stored/baseline/suite-baseline.js';
import type { Baseline, BaselineCase } from '../stored/baseline/types.js';
import type { CaseEntry, ReportHead, SuiteReport } from '../stored/report/types.js';
import type { CaseReview } from './review.js';
import type { Totals } from './totals.js';

/** A suite once its verdicts are known: its report entry and the baseline its cases were compared with. */
export interface SuiteEvent {
  suite: SuiteReport;
  /** The baseline's own fields (its source run, model); each case's entry comes with the case. */
  baseline: BaselineHead | null;
  /** Cases in the whole plan (every suite), known before the first suite is folded. */
  planned: number;
}

/**
 * One finished case of a suite, in plan order, with what the fold decided of it: its review
 * class (the order every view lists cases by), its CI outcome and its pass-rate concern.
 */
interface CaseEvent extends SuiteEvent, CaseReview {
  entry: CaseEntry;
  /** The case's baseline entry, when its suite's baseline has one. */
  base: BaselineCase | undefined;
}

/** A suite once every case of it is handed over: its totals, added up by the fold as they came. */
export interface SuiteEndEvent extends SuiteEvent {
  totals: Totals;
}

/** A suite once folded: its report entry, its cases in plan order, and the baseline they were compared with. */
export interface FoldedSuiteEvent extends Omit<SuiteEndEvent, 'baseline'> {
  cases: readonly CaseEntry[];
  baseline: Baseline | null;
}

/**
 * What renders a run. Reporters receive finished, read-only data and never compute a
 * verdict, a rank or a total: the fold hands them each suite's cases one at a time (`onCase`,
 * between `onSuiteStart` and `onSuiteEnd`), each with its review class, then each suite's
 * totals (`onSuiteEnd`), then the finished head with the run's totals: a suite's entries are
 * never all in memory, so a reporter must not gather them either. A file reporter writes its
 * case parts as they come and assembles its file at the end.
 */
export interface Reporter {
  /** A suite's verdicts are known; its cases follow. Suites arrive in plan order. */
  onSuiteStart?(event: SuiteEvent): void | Promise<void>;
  /** One case of the suite last started, in plan order. */
  onCase?(event: CaseEvent): void | Promise<void>;
  /** Every case of the suite has been handed over: its totals are known. */
  onSuiteEnd?(event: SuiteEndEvent): void | Promise<void>;
  /**
   * A suite with all its cases in one array, after its onSuiteEnd. For small runs and
   * library callers only: the fold gathers the array just for a reporter that has this
   * hook, which holds a whole suite in memory.
   */
  onSuite?(event: FoldedSuiteEvent): void | Promise<void>;
  /**
   * Once, when every suite is folded: the run, the counts and the suites, and the run's
   * totals (never written to report.json). Returns the files written.
   */
  onEnd?(head: ReportHead, totals: Totals): Promise<string[]>;
  /** When the fold fails before the end: remove partial files. */
  onAbort?(): Promise<void>;
}
