import { describe, expect, it } from 'vitest';
import { foldSamples } from '../helpers/fold.js';
import { sampleResult } from '../helpers/results.js';
import { loopBaseline, trajectoryOf } from '../helpers/tool-loops.js';
import { nearestRank, nearestRankOfCounts } from '../../src/stats/nearest-rank.js';
import { createRng } from '../../src/stats/random.js';

const at = (pass: number, total: number) => ({ pass, total });

describe('steps_changed', () => {
  const night = (steps: number) =>
    sampleResult({ suite: 'agent', case: 'refund', trajectory: trajectoryOf(steps) });
  const kinds = async (steps: number, drift?: { steps: { extra: number } }) =>
    (
      await foldSamples([night(steps)], {
        baselines: { agent: loopBaseline({ refund: {} }) },
        ...(drift ? { drift: { suites: { agent: drift } } } : {}),
      })
    ).cases[0]!.drift;

  it('tolerates one step beyond the baseline’s by default, and what drift.steps.extra says', async () => {
    expect((await kinds(4)).map((d) => d.kind)).not.toContain('steps_changed');
    expect((await kinds(5)).find((d) => d.kind === 'steps_changed')).toMatchObject({
      severity: 'warn',
      baseline: 3,
      current: 5,
      message: 'took 5 steps, the baseline 3 (drift.steps.extra: 1)',
    });
    expect((await kinds(4, { steps: { extra: 0 } })).map((d) => d.kind)).toContain('steps_changed');
    expect((await kinds(6, { steps: { extra: 3 } })).map((d) => d.kind)).not.toContain('steps_changed');
  });

  it('compares medians where a side was sampled more than once', async () => {
    // 11 of 20 samples loop to 6 steps: the median is 6, 3 beyond the baseline's median of 3.
    const samples = Array.from({ length: 20 }, (_, repeat) =>
      sampleResult({ suite: 'agent', case: 'refund', repeat, trajectory: trajectoryOf(repeat < 11 ? 6 : 3) }),
    );
    const report = await foldSamples(samples, {
      baselines: {
        agent: loopBaseline({
          refund: { samples: at(20, 20), trajectory: { ...trajectoryOf(5), median_steps: 3 } },
        }),
      },
    });
    const refund = report.cases[0]!;
    expect(refund.trajectory).toMatchObject({ steps: 6, median_steps: 6 });
    expect(refund.drift.find((d) => d.kind === 'steps_changed')).toMatchObject({
      baseline: 3,
      current: 6,
      message: "took a median of 6 steps over its samples, the baseline's median 3 (drift.steps.extra: 1)",
    });
  });
});

describe('a median of counts', () => {
  it('is the nearest-rank percentile of the values the counts stand for', () => {
    const random = createRng(35);
    for (let t = 0; t < 200; t++) {
      const counts = new Map<number, number>();
      for (let k = 0; k < 1 + Math.floor(random() * 4); k++)
        counts.set(1 + Math.floor(random() * 8), 1 + Math.floor(random() * 6));
      const values = [...counts].flatMap(([v, n]) => Array<number>(n).fill(v));
      for (const q of [0.5, 0.95, 1]) expect(nearestRankOfCounts(counts, q)).toBe(nearestRank(values, q));
    }
    expect(nearestRankOfCounts(new Map(), 0.5)).toBeNull();
  });
});
