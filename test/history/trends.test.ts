import { describe, expect, it } from 'vitest';
import { nightsByCase } from '../../src/history/nights.js';
import { firstChanged, trendOf } from '../../src/history/trends.js';
import type { History, HistoryCaseInput } from '../../src/stored/history/types.js';
import { makeCase, makeRun } from './fixture.js';

/** A history of one case whose nightly pass counts are `passes` (10 samples each). */
function historyOf(passes: number[], extra: (night: number) => HistoryCaseInput[] = () => []): History {
  return {
    runs: passes.map((k, night) => ({
      ...makeRun(night),
      cases: [
        makeCase('refund', { passes: k, status: k === 10 ? 'pass' : k === 0 ? 'error' : 'fail' }),
        ...extra(night),
      ],
    })),
    baselines: [],
    problems: [],
  };
}

const steady = (n: number): number[] => Array.from({ length: n }, (_, i) => (i % 3 ? 10 : 9));

/** The nights of one case, as tonight's annotator indexes them. */
const nightsOf = (history: History, id = 'support/refund') => nightsByCase(history).get(id) ?? [];

describe('nights and trends of a case', () => {
  it("indexes each case's nights oldest first", () => {
    const history = historyOf([10, 9, 10, 0, 8]);
    const nights = nightsOf(history).slice(-3);
    expect(nights.map((n) => [n.entry.status, n.entry.passes, n.entry.samples])).toEqual([
      ['pass', 10, 10],
      ['error', 0, 10],
      ['fail', 8, 10],
    ]);
    expect(nights[2]!.run.run_id).toBe(history.runs[4]!.run_id);
  });

  it('names the first night of the current status, skipping not-run nights', () => {
    const history = historyOf([10, 10, 8, 7, 10, 6, 5]);
    history.runs[6]!.cases[0] = makeCase('refund', { status: 'not_run', samples: 0, passes: 0 });
    expect(firstChanged(nightsOf(history))).toEqual({
      run_id: history.runs[5]!.run_id,
      started_at: history.runs[5]!.started_at,
    });
    expect(firstChanged(nightsOf(historyOf([10, 10])))).toBeNull();
  });

  it('flags a slow drop with the night it began, and forgets it once a baseline is accepted', () => {
    const history = historyOf([...steady(30), ...Array.from({ length: 10 }, () => 7)]);
    const trending = trendOf(history, nightsOf(history))!;
    expect(trending).toMatchObject({ kind: 'pass_rate_trending_down', severity: 'warn' });
    expect(trending.began.run_id).toBe(history.runs[30]!.run_id);
    expect(trending.baseline).toBeGreaterThan(0.9);
    expect(trending.current).toBeCloseTo(0.7, 5);
    expect(trending.message).toContain(`since 2026-12-01 (run ${history.runs[30]!.run_id})`);

    const accepted = {
      ...history,
      baselines: [{ suite: 'support', source_run: 'x', at: history.runs[31]!.started_at }],
    };
    expect(trendOf(accepted, nightsOf(accepted))).toBeNull();
    // A new baseline_source_run on the run line resets as well.
    const relined = historyOf([...steady(30), ...Array.from({ length: 10 }, () => 7)]);
    relined.runs.forEach((run, i) => {
      run.suites = run.suites.map((s) => ({ ...s, baseline_source_run: i < 32 ? 'old' : 'new' }));
    });
    expect(trendOf(relined, nightsOf(relined))).toBeNull();
  });

  it('indexes every case of the history, and no other', () => {
    const history = historyOf([10], () => [makeCase('other')]);
    expect([...nightsByCase(history).keys()]).toEqual(['support/refund', 'support/other']);
    expect(nightsOf(history, 'support/nope')).toEqual([]);
  });
});
