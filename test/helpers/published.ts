import { type PublishedReport, publishReport } from '../../src/fold/published.js';
import type { Reporter } from '../../src/fold/reporter.js';
import type { Outcome, RateConcern, ReviewClass } from '../../src/fold/review.js';
import type { Totals } from '../../src/fold/totals.js';
import type { Report } from '../../src/stored/report/types.js';

/**
 * A report as the fold publishes it, with some of what the fold decided replaced: a class
 * for a case, a figure of the run's totals or of a suite's. A renderer that only renders
 * shows what this says; one that ranked or summed the entries itself would show what they
 * say instead — which is what the tests that use it look for.
 */
export function foldedOtherwise(
  report: Report,
  decided: {
    review?: Record<string, ReviewClass>;
    outcome?: Record<string, Outcome>;
    rate?: Record<string, RateConcern>;
    totals?: Partial<Totals>;
    suiteTotals?: Record<string, Partial<Totals>>;
  },
): PublishedReport {
  const published = publishReport(report);
  const recase = <C extends PublishedReport['cases'][number]>(c: C): C => ({
    ...c,
    ...(decided.review?.[c.entry.id] ? { review: decided.review[c.entry.id] } : {}),
    ...(decided.outcome?.[c.entry.id] ? { outcome: decided.outcome[c.entry.id] } : {}),
    ...(decided.rate?.[c.entry.id] ? { rate: decided.rate[c.entry.id] } : {}),
  });
  return {
    head: published.head,
    totals: { ...published.totals, ...decided.totals },
    suites: published.suites.map((s) => ({
      ...s,
      totals: { ...s.totals, ...decided.suiteTotals?.[s.suite.suite] },
      cases: s.cases.map(recase),
    })),
    cases: published.cases.map(recase),
  };
}

/** Hands a published report to a reporter as the fold hands a run: suite by suite, case by case, then the end. */
export async function replay(reporter: Reporter, report: PublishedReport): Promise<string[]> {
  const planned = report.cases.length;
  for (const { suite, totals, cases } of report.suites) {
    const event = { suite, baseline: null, planned };
    await reporter.onSuiteStart?.(event);
    for (const c of cases) await reporter.onCase?.({ ...event, ...c, base: undefined });
    await reporter.onSuiteEnd?.({ ...event, totals });
  }
  return (await reporter.onEnd?.(report.head, report.totals)) ?? [];
}
