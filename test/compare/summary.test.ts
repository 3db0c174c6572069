import { describe, expect, it } from 'vitest';
import { ComparisonRows } from '../../src/compare/compare.js';
import { ComparedSide } from '../../src/compare/side.js';
import { foldedOtherwise } from '../helpers/published.js';
import { makeEntry, reportOf } from '../helpers/entries.js';

/**
 * A candidate's run as the comparison reads it, with totals the fold published that no sum
 * of its entries gives: the summary must show the fold's, not count its own.
 */
function side(): ComparedSide {
  const report = reportOf([
    makeEntry({ case: 'a' }),
    makeEntry({ case: 'b', status: 'fail' }),
    makeEntry({ case: 'c', status: 'not_run', usage: null, latency_ms: null }),
  ]);
  const published = foldedOtherwise(
    { ...report, run: { ...report.run, id: 'run-x', candidate_provider: 'Groq' } },
    {
      totals: {
        counts: { ...report.summary, cases: 30, passed: 20, failed: 6, errored: 2, not_run: 2 },
        tokens: { prompt: 1, completion: 2, total: 3 },
        cost: 0.5,
        costed: 25,
        tools: { cases: 4, answered: 9, triggered: 6, valid: 3, trigger_rate: 2 / 3, valid_rate: 0.5 },
        error_kinds: { timeout: 2 },
        latency_ms: { p50: 111, p95: 999, samples: 28 },
        providers: [{ name: 'Groq', cases: 27 }],
        models: [{ name: 'llama', cases: 28 }],
        unrouted: [{ suite: 'refunds', model: 'llama', cases: 2, total: 30, message: 'no route' }],
      },
    },
  );
  const s = new ComparedSide('reports/x');
  for (const c of published.cases) s.add(c);
  s.head = published.head;
  s.totals = published.totals;
  return s;
}

describe("a candidate's summary renders its run's totals as the fold published them", () => {
  it('shows the counts, tokens, cost, tool rates, error kinds, latency and providers it was given', async () => {
    const rows = new ComparisonRows({ kind: 'baseline', verdictCase: () => null }, [
      { label: 'x', side: side() },
    ]);
    for await (const _row of rows.rows());
    const [x] = rows.head().candidates;
    expect(x).toMatchObject({
      cases: 30,
      passed: 20,
      failed: 6,
      errored: 2,
      not_run: 2,
      pass_rate: { passed: 20, total: 28 },
      tokens: { prompt: 1, completion: 2, total: 3 },
      cost: { total: 0.5, cases_with_cost: 25, per_1000_cases: 20 },
      tools: { cases: 4, answered: 9, triggered: 6, valid: 3, trigger_rate: 0.6667, valid_rate: 0.5 },
      error_kinds: { timeout: 2 },
      latency_ms: { p50: 111, p95: 999, samples: 28 },
      providers: [{ name: 'Groq', cases: 27 }],
      models: [{ name: 'llama', cases: 28 }],
      unserved: [{ suite: 'refunds', model: 'llama', cases: 2, total: 30, message: 'no route' }],
    });
  });

  it('refuses a run whose totals the fold has not published', async () => {
    const s = side();
    s.totals = null;
    const rows = new ComparisonRows({ kind: 'baseline', verdictCase: () => null }, [{ label: 'x', side: s }]);
    for await (const _row of rows.rows());
    expect(() => rows.head()).toThrow(/run x was not read to its end/);
  });
});
