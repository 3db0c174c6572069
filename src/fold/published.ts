import { openReport } from '../stored/report/read.js';
import type { CaseEntry, Report, ReportHead, SuiteReport } from '../stored/report/types.js';
import { type CaseReview, reviewCase } from './review.js';
import { type Totals, TotalsTally } from './totals.js';

/** One case as the fold publishes it: its entry and what the fold decided of it. */
export interface FoldedCase extends CaseReview {
  readonly entry: CaseEntry;
}

/**
 * A report held in memory (a test's, a library caller's) as the fold publishes a run: each
 * case with its review, each suite with its cases and totals, and the run's totals. The
 * views that render a whole report at once read this, so they render the same classes and
 * figures the fold hands their reporters.
 */
export interface PublishedReport {
  head: ReportHead;
  totals: Totals;
  /** In the head's order; a case is under the suite it names. */
  suites: { suite: SuiteReport; totals: Totals; cases: FoldedCase[] }[];
  /** Every case, in the report's order. */
  cases: FoldedCase[];
}

/** Publishes a report held in memory (see PublishedReport). Pure. */
export function publishReport(report: Report): PublishedReport {
  const run = new TotalsTally();
  const bySuite = new Map(
    report.suites.map((suite) => [
      suite.suite,
      { suite, tally: new TotalsTally(), cases: [] as FoldedCase[] },
    ]),
  );
  const cases = report.cases.map((entry) => {
    const folded: FoldedCase = { entry, ...reviewCase(entry) };
    run.add(entry, folded);
    const suite = bySuite.get(entry.suite);
    suite?.tally.add(entry, folded);
    suite?.cases.push(folded);
    return folded;
  });
  for (const { suite, tally } of bySuite.values()) {
    run.addSuite(suite);
    tally.addSuite(suite);
  }
  return {
    head: headOf(report),
    totals: run.result(),
    suites: [...bySuite.values()].map(({ suite, tally, cases }) => ({
      suite,
      totals: tally.result(),
      cases,
    })),
    cases,
  };
}

function headOf({ cases: _cases, ...head }: Report): ReportHead {
  return head;
}

/**
 * A stored run (a run folder or its report.json) as the fold publishes it: its head, its
 * cases one at a time each with its review, and its totals, added up as the cases are read
 * — the one place figures report.json does not hold are made again from it.
 */
export interface PublishedStoredReport {
  file: string;
  head: ReportHead;
  /** The cases in file order, read once. */
  cases(): AsyncGenerator<FoldedCase>;
  /** The run's totals: call once every case was read. */
  totals(): Totals;
}

/** Opens a stored run to read as the fold publishes it (errors: openReport's). */
export async function openPublished(path: string): Promise<PublishedStoredReport> {
  const stored = await openReport(path);
  const tally = new TotalsTally();
  let read = false;
  return {
    file: stored.file,
    head: stored.head,
    async *cases() {
      for await (const entry of stored.cases()) {
        const review = reviewCase(entry);
        tally.add(entry, review);
        yield { entry, ...review };
      }
      for (const suite of stored.head.suites) tally.addSuite(suite);
      read = true;
    },
    totals() {
      if (!read) throw new Error('openPublished: read the cases before the totals');
      return tally.result();
    },
  };
}
