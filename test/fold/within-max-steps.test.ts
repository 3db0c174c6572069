import { describe, expect, it } from 'vitest';
import {
  analysePassRates,
  analyseRate,
  type CaseSamples,
  PASS_RATE,
  WITHIN_MAX_STEPS,
} from '../../src/fold/pass-rates.js';
import { errorsShown } from '../../src/fold/case-entry.js';
import { baselineWithin } from '../../src/stored/baseline/within-max-steps.js';
import { baselineCase } from '../../src/baseline/build.js';
import type { SampleResult } from '../../src/stored/journal/records.js';
import { caseError } from '../baseline/fixtures.js';
import { foldSamples } from '../helpers/fold.js';
import { suiteVerdict } from '../../src/stats/index.js';
import { sampleResult } from '../helpers/results.js';
import { loopBaseline, trajectoryOf } from '../helpers/tool-loops.js';

const at = (pass: number, total: number) => ({ pass, total });
const loop = (id: string, now: [number, number], base: [number, number] | null): CaseSamples => ({
  case: id,
  samples: at(...now),
  baseline: base && at(...base),
  adaptive: false,
});

// Hand-computed exact one-sided p-values, 3 samples a side. Boschloo's test orders the tables by
// Fisher's p and takes the worst shared rate π: 0/3 against 3/3 is the only table as extreme
// (Fisher p = 1/20), so p = max π³(1−π)³ = 1/64 at π = ½. For 2/3 against 3/3 the tables with
// Fisher p ≤ ½ add up to 10x³ − 9x² + 3x with x = π(1−π), rising in x: p = 22/64 at π = ½.
describe('a tool loop’s rate of finishing within max_steps, tested as pass rates are', () => {
  it('drops as within_max_steps_dropped with the exact one-sided p of the case', () => {
    const { stats, caseDrift, suiteDrift } = analyseRate(WITHIN_MAX_STEPS, [loop('refund', [0, 3], [3, 3])]);
    expect(stats[0]).toMatchObject({ verdict: 'dropped', dropped: true, p: 0.01563 });
    expect(caseDrift.get('refund')).toEqual({
      kind: 'within_max_steps_dropped',
      severity: 'fail',
      baseline: at(3, 3),
      current: at(0, 3),
      message: 'rate of finishing within max_steps 100% (3/3) → 0% (0/3), p = 0.016 (alpha 0.05)',
    });
    // One case is its own suite: no suite finding beside it.
    expect(suiteDrift).toEqual([]);

    const [once] = analyseRate(WITHIN_MAX_STEPS, [loop('refund', [2, 3], [3, 3])]).stats;
    expect(once!.p).toBeCloseTo(22 / 64, 4);
    expect(once).toMatchObject({ verdict: 'stable', dropped: false });
  });

  it('flags cases only where the suite’s stratified test rejects and the Holm-adjusted p ≤ alpha', () => {
    // Two loops 3/3 → 0/3 and one 3/3 → 2/3. Given the margins, a's and b's current finishes
    // are hypergeometric, (1, 9, 9, 1)/20 on 0..3, and c's ½ on 2 and 3: a total ≤ 2 has
    // chance ½ × (1/20)² = 1/800.
    const suite = analyseRate(WITHIN_MAX_STEPS, [
      loop('a', [0, 3], [3, 3]),
      loop('b', [0, 3], [3, 3]),
      loop('c', [2, 3], [3, 3]),
    ]);
    // Holm over 3: a and b 3 × 1/64 = 0.047 ≤ 0.05; c 22/64.
    expect(suite.stats.map((s) => [s.case, s.dropped, s.verdict])).toEqual([
      ['a', true, 'dropped'],
      ['b', true, 'dropped'],
      ['c', false, 'stable'],
    ]);
    expect([...suite.caseDrift.keys()]).toEqual(['a', 'b']);
    const pooled = suiteVerdict([
      { baseline: at(3, 3), current: at(0, 3) },
      { baseline: at(3, 3), current: at(0, 3) },
      { baseline: at(3, 3), current: at(2, 3) },
    ]);
    expect(pooled.p).toBeCloseTo(1 / 800, 12);
    expect(pooled.perCase.map((c) => c.adjustedP)).toEqual([
      expect.closeTo(3 / 64, 12),
      expect.closeTo(3 / 64, 12),
      expect.closeTo(22 / 64, 4),
    ]);
    expect(suite.suiteDrift).toEqual([
      {
        kind: 'within_max_steps_dropped',
        severity: 'fail',
        baseline: at(9, 9),
        current: at(2, 9),
        message:
          'suite rate of finishing within max_steps 100% (9/9) → 22% (2/9) over 3 repeated tool loops, p = 0.001 (stratified exact one-sided (Cochran–Mantel–Haenszel), Holm-adjusted cases, alpha 0.05)',
      },
    ]);
  });

  it('flags no case when the suite test does not reject, whatever its own adjusted p', () => {
    // a: 3/3 → 0/3 (Holm-adjusted over 2: 1/32 ≤ 0.05); b rose 0/3 → 3/3. The suite's total
    // of 3 finishes has chance 282/400 = 0.705: no drop over the suite, so no flag at all.
    const gated = analyseRate(WITHIN_MAX_STEPS, [loop('a', [0, 3], [3, 3]), loop('b', [3, 3], [0, 3])]);
    expect(gated.stats.map((s) => [s.case, s.dropped, s.verdict])).toEqual([
      ['a', false, 'stable'],
      ['b', false, 'stable'],
    ]);
    expect(gated.caseDrift.size).toBe(0);
    expect(gated.suiteDrift).toEqual([]);
  });

  it('is the pass rates’ own analysis: the same verdicts of the same counts, under its own kind', () => {
    const cases = [loop('a', [0, 3], [3, 3]), loop('b', [0, 3], [3, 3]), loop('c', [2, 3], [3, 3])];
    const passes = analysePassRates(cases);
    const finishes = analyseRate(WITHIN_MAX_STEPS, cases);
    expect(finishes.stats).toEqual(passes.stats.map(({ failing: _failing, ...s }) => s));
    expect(analyseRate(PASS_RATE, cases).stats).toEqual(finishes.stats);
    expect(passes.suiteDrift.map((d) => d.kind)).toEqual(['pass_rate_dropped', 'weak_baseline']);
    // Pass rates say once that 3-sample baselines are weak; the second rate does not repeat it.
    expect(finishes.suiteDrift.map((d) => d.kind)).toEqual(['within_max_steps_dropped']);
  });
});

describe('the baseline’s samples of finishing within max_steps', () => {
  it('are those it keeps, else a tool loop’s one sample, else none', () => {
    expect(baselineWithin({ within_max_steps: at(19, 20), samples: at(18, 20), status: 'pass' })).toEqual(
      at(19, 20),
    );
    const trajectory = { steps: 3, calls: [] };
    expect(baselineWithin({ trajectory, status: 'pass' })).toEqual(at(1, 1));
    expect(baselineWithin({ trajectory, status: 'error' })).toEqual(at(0, 1));
    // A repeated baseline accepted before they were kept: nothing to compare with.
    expect(baselineWithin({ trajectory, samples: at(20, 20), status: 'pass' })).toBeNull();
    expect(baselineWithin({ status: 'pass' })).toBeNull();
  });
});

describe('a repeated case’s loop errors are failed samples', () => {
  it('counts only the other errors as showing', () => {
    expect(errorsShown(5, { max_steps_reached: 3, tool_result_missing: 1, timeout: 1 })).toBe(1);
    expect(errorsShown(2, { timeout: 2 })).toBe(2);
  });
});
/** `n` samples of a 3-step tool loop; those in `loops` ran to max_steps 4 and errored. */
function loopSamples(id: string, n: number, loops: readonly number[] = []): SampleResult[] {
  return Array.from({ length: n }, (_, repeat) =>
    loops.includes(repeat)
      ? sampleResult({
          suite: 'agent',
          case: id,
          repeat,
          status: 'error',
          error: caseError('max_steps_reached', 'still calling tools after 4 steps'),
          finish_reason: 'tool_calls',
          content: null,
          trajectory: trajectoryOf(4),
        })
      : sampleResult({ suite: 'agent', case: id, repeat, trajectory: trajectoryOf(3) }),
  );
}

describe('the fold of a repeated tool loop', () => {
  it('keeps its rate in the entry and the baseline, and drops it as its own drift kind', async () => {
    const report = await foldSamples(
      [...loopSamples('refund', 20, [0, 3, 6, 9, 12, 15, 18, 19]), ...loopSamples('status', 20)],
      {
        baselines: {
          agent: loopBaseline({
            refund: { samples: at(20, 20), within_max_steps: at(20, 20) },
            status: { samples: at(20, 20), within_max_steps: at(20, 20) },
          }),
        },
      },
    );
    const refund = report.cases.find((c) => c.case === 'refund')!;
    expect(refund.within_max_steps).toMatchObject({
      finished: 12,
      total: 20,
      rate: 0.6,
      baseline: at(20, 20),
      verdict: 'dropped',
    });
    expect(refund.drift.map((d) => d.kind)).toEqual(
      expect.arrayContaining(['pass_rate_dropped', 'within_max_steps_dropped']),
    );
    // Its loop errors are failed samples: the case fails by its rates, not as an error of
    // the service (no new_error), and its samples still say how each ended.
    expect(refund.status).toBe('fail');
    expect(refund.drift.map((d) => d.kind)).not.toContain('new_error');
    expect(refund.samples).toMatchObject({ sent: 20, passed: 12, errored: 8 });
    expect(refund.error_kinds).toEqual({ max_steps_reached: 8 });
    // Its median is 3 steps (12 of 20 samples): no steps_changed against the baseline's 3.
    expect(refund.trajectory).toMatchObject({ steps: 4, median_steps: 3 });
    expect(refund.drift.map((d) => d.kind)).not.toContain('steps_changed');
    const suiteKinds = report.suites[0]!.drift.map((d) => d.kind);
    expect(suiteKinds).toEqual(expect.arrayContaining(['pass_rate_dropped', 'within_max_steps_dropped']));
    // What `baseline accept` keeps of it.
    expect(baselineCase(refund).within_max_steps).toEqual(at(12, 20));
    expect(report.cases.find((c) => c.case === 'status')!.within_max_steps).toMatchObject({
      finished: 20,
      verdict: 'stable',
    });
  });

  it('passes a loop that ran out of steps as often as in its baseline; an error of the service still shows', async () => {
    const report = await foldSamples(
      [
        ...loopSamples('refund', 20, [7]),
        ...loopSamples('status', 20).map((s) =>
          s.repeat === 4 ? { ...s, status: 'error' as const, error: caseError('timeout'), content: null } : s,
        ),
      ],
      {
        baselines: {
          agent: loopBaseline({
            refund: { samples: at(19, 20), within_max_steps: at(19, 20) },
            status: { samples: at(20, 20), within_max_steps: at(20, 20) },
          }),
        },
      },
    );
    const refund = report.cases.find((c) => c.case === 'refund')!;
    expect(refund.status).toBe('pass');
    expect(refund.drift).toEqual([]);
    expect(refund.within_max_steps).toMatchObject({ finished: 19, total: 20, verdict: 'flaky' });
    const status = report.cases.find((c) => c.case === 'status')!;
    expect(status.status).toBe('error');
    expect(status.drift.map((d) => d.kind)).toContain('new_error');
    // A sample cut by the service did not finish within max_steps either.
    expect(status.within_max_steps).toMatchObject({ finished: 19, total: 20 });
  });
});
