import { describe, expect, it } from 'vitest';
import { candidateVerdicts, type VerdictCase } from '../../src/compare/verdict.js';
import { verdictCaseOfBaseline } from '../../src/compare/verdict-cases.js';
import { keptOf, verdictCaseOf } from '../../src/compare/side.js';
import { reviewCase } from '../../src/fold/review.js';
import type { Baseline } from '../../src/stored/baseline/types.js';
import { makeEntry } from '../helpers/entries.js';

/** `n` single-sample cases `c0…`, passing where `passes(i)`, each costing `cost` and answering in `latency` ms. */
function side(
  n: number,
  passes: (i: number) => boolean,
  cost: number | null,
  latency: number,
): VerdictCase[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `s/c${i}`,
    samples: { pass: passes(i) ? 1 : 0, total: 1 },
    cost,
    latency_ms: [latency + i],
  }));
}

describe('candidateVerdicts', () => {
  // 40 cases the reference passes but the last 2.
  const reference = side(40, (i) => i < 38, 0.001, 500);

  it('says which candidate is significantly worse, Holm-adjusted over the candidates, with cost and p95 latency', () => {
    const verdicts = candidateVerdicts(reference, [
      // Fails cases 0–11 the reference passed, passes case 38 it failed: 12 regressions, 1 fix.
      { label: 'worse', cases: side(40, (i) => i >= 12 && i !== 39, 0.0008, 620) },
      { label: 'same', cases: side(40, (i) => i < 38, 0.00062, 500) },
      { label: 'dearer', cases: side(40, (i) => i !== 0 && i < 38, 0.0012, 450) },
    ]);
    const [worse, same, dearer] = verdicts;
    // One-sided mid-p: P(X > 12 | 13) + ½ P(X = 12 | 13) = (1 + 13/2)/8192; Holm over 3: the smallest times 3.
    expect(worse!.test).toMatchObject({ method: 'mcnemar', cases: 40, regressions: 12, fixes: 1 });
    expect(worse!.test.p).toBeCloseTo(7.5 / 8192, 14);
    expect(worse!.p_adjusted).toBeCloseTo((3 * 7.5) / 8192, 14);
    expect(worse).toMatchObject({ worse: true, better: false, p95_change_ms: 120 });
    expect(worse!.cost_change).toBeCloseTo(-0.2, 12);
    expect(worse!.line).toBe(
      'significantly worse: pass rate lower in 12 and higher in 1 of 40 cases (McNemar p = 0.003, Holm over 3 candidates); 20 % cheaper; p95 latency +120 ms',
    );
    // Mid-p of 1 of 1: ½ · ½; Holm's second smallest times 2: 0.5. No discordant pair: p = 1.
    expect(dearer!.line).toBe(
      'no significant regression: pass rate lower in 1 and higher in 0 of 40 cases (McNemar p = 0.500, Holm over 3 candidates); 20 % dearer; p95 latency -50 ms',
    );
    expect(same!.line).toBe(
      'no significant regression: pass rate lower in 0 and higher in 0 of 40 cases (McNemar p = 1.000, Holm over 3 candidates); 38 % cheaper; p95 latency ±0 ms',
    );
  });

  it('says a candidate is significantly better when the fixes outweigh the regressions', () => {
    const weak = side(30, (i) => i < 15, null, 100);
    const [better] = candidateVerdicts(weak, [{ label: 'b', cases: side(30, () => true, null, 100) }]);
    expect(better).toMatchObject({ worse: false, better: true, cost_change: null });
    // 15 fixes, 0 regressions: mid-p ½ · 2^-15; one candidate, no Holm.
    expect(better!.line).toBe(
      'significantly better: pass rate lower in 0 and higher in 15 of 30 cases (McNemar p = 1.5e-5); p95 latency ±0 ms',
    );
  });

  it('pairs only the cases both sides ran, and says so when none', () => {
    const other = side(3, () => true, 0.001, 100).map((c) => ({ ...c, id: `other/${c.id}` }));
    const [none] = candidateVerdicts(reference, [{ label: 'x', cases: other }]);
    expect(none).toMatchObject({ worse: false, better: false, cost_change: null, p95_change_ms: null });
    expect(none!.line).toBe('no case in common with the reference: nothing to compare');
  });

  it('never gives a candidate that answered nothing, or too few to test, a comparative verdict', () => {
    // Every sample errored (the router's 503): no answer, whatever the counts say.
    const unanswered = (n: number, answered: (i: number) => boolean) =>
      side(n, () => false, null, 0).map((c, i) => ({ ...c, answered: answered(i) ? 1 : 0 }));
    const [none, few, enough, good] = candidateVerdicts(reference, [
      { label: 'none', cases: unanswered(40, () => false) },
      // Answered 3 of 40: even were all 3 regressions, one-sided mid-p ½ · ½³ = 0.0625 > 0.05.
      { label: 'few', cases: unanswered(40, (i) => i < 3) },
      // Answered 30 of 40, each a regression: enough to call it worse.
      { label: 'enough', cases: unanswered(40, (i) => i < 30) },
      { label: 'good', cases: side(40, (i) => i < 38, null, 500) },
    ]);
    expect(none).toMatchObject({ could_not_serve: true, answered: 0, worse: false, better: false });
    expect(none!.line).toBe('could not serve: 0 of 40 answered');
    expect(few).toMatchObject({ could_not_serve: true, answered: 3, worse: false, better: false });
    expect(few!.line).toBe('could not serve: 3 of 40 answered, too few to test');
    expect(enough).toMatchObject({ could_not_serve: false, answered: 30, worse: true });
    // The two that could not serve are not in the Holm family: two candidates were compared.
    expect(enough!.line).toMatch(
      /^significantly worse: pass rate lower in 38 and higher in 0 of 40 cases \(McNemar p = .*, Holm over 2 candidates\)/,
    );
    expect(good!.line).toMatch(/^no significant regression: .*Holm over 2 candidates/);
    // A candidate that answered every case is compared however few they are.
    const [small] = candidateVerdicts(
      side(3, () => true, null, 1),
      [{ label: 's', cases: side(3, () => false, null, 1) }],
    );
    expect(small).toMatchObject({ could_not_serve: false, answered: 3 });
    expect(small!.line).toMatch(
      /^no significant regression: pass rate lower in 3 and higher in 0 of 3 cases/,
    );
  });

  it('writes a ratio past twice the cost', () => {
    const [v] = candidateVerdicts(reference, [{ label: 'x', cases: side(40, (i) => i < 38, 0.0374, 500) }]);
    expect(v!.line).toMatch(/; 37× the cost; /);
  });
});

describe('the adapters', () => {
  it("reads a run's cases as passed of sent, mean cost per costed sample and the answered latency sketch", () => {
    const ran = makeEntry({ suite: 's', case: 'a' });
    ran.samples = { planned: 4, sent: 4, passed: 3, failed: 1, errored: 0, not_run: 0 };
    ran.stats = { ...ran.stats, cost: 0.004, with_cost: 4 };
    ran.stats.answered = { ...ran.stats.answered, latency_ms: { n: 2, p50: 10, p95: 20, sample: [10, 20] } };
    const notRun = makeEntry({ suite: 's', case: 'b', status: 'not_run' });
    notRun.samples = { planned: 1, sent: 0, passed: 0, failed: 0, errored: 0, not_run: 1 };
    expect([ran, notRun].map((e) => verdictCaseOf(e.id, keptOf({ entry: e, ...reviewCase(e) })))).toEqual([
      { id: 's/a', samples: { pass: 3, total: 4 }, cost: 0.001, latency_ms: [10, 20], answered: 4 },
      null,
    ]);
  });

  it('reads baselines as the fold compares with them: a 1-sample entry by its status, a repeated one by its samples', () => {
    const entry = {
      requested_model: 'm',
      model: 'm',
      finish_reason: 'stop',
      content: 'x',
      error_kind: null,
      checks: [],
    };
    const baseline = {
      schema_version: 1,
      suite: 's',
      service: 'router',
      model: 'm',
      source_run: 'r',
      cases: {
        one: {
          ...entry,
          status: 'fail',
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, cost: 0.002 },
        },
        ten: {
          ...entry,
          status: 'pass',
          usage: null,
          samples: { pass: 9, total: 10 },
          latency_ms: { n: 1, p50: 5, p95: 5, sample: [5] },
        },
      },
    } as unknown as Baseline;
    expect(Object.entries(baseline.cases).map(([id, c]) => verdictCaseOfBaseline('s', id, c))).toEqual([
      { id: 's/one', samples: { pass: 0, total: 1 }, cost: 0.002, latency_ms: [] },
      { id: 's/ten', samples: { pass: 9, total: 10 }, cost: null, latency_ms: [5] },
    ]);
  });
});
