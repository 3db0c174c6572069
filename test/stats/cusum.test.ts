import { describe, expect, it } from 'vitest';
import { cusumArl, cusumThreshold, nightLlr } from '../../src/stats/cusum-arl.js';
import { cusumStart, cusumStep, detectTrend, testedRates, CUSUM_DEFAULTS } from '../../src/stats/cusum.js';
import { createRng } from '../../src/stats/index.js';

const binomial = (n: number, p: number, random: () => number): number => {
  let x = 0;
  for (let i = 0; i < n; i++) if (random() < p) x++;
  return x;
};
const nights = (counts: number[], samples = 10) => counts.map((passes) => ({ passes, samples }));

describe('cusumArl (Markov chain)', () => {
  it('agrees with a Monte-Carlo run length of the same CUSUM', () => {
    const h = 3;
    const random = createRng(42);
    let total = 0;
    const runs = 2000;
    for (let r = 0; r < runs; r++) {
      let s = 0;
      let n = 0;
      do {
        n++;
        s = Math.max(0, s + nightLlr(binomial(10, 0.95, random), 10, 0.95, 0.85));
      } while (s <= h);
      total += n;
    }
    const simulated = total / runs;
    const exact = cusumArl(0.95, 0.85, 10, h);
    // Monte-Carlo error of a mean of 2000 roughly geometric run lengths is ~2.5 %.
    expect(Math.abs(simulated - exact) / exact).toBeLessThan(0.1);
  });

  it('runs far shorter once the rate has really dropped', () => {
    const h = cusumThreshold(0.95, 0.85, 10, 1000);
    expect(cusumArl(0.95, 0.85, 10, h)).toBeGreaterThanOrEqual(1000);
    expect(cusumArl(0.95, 0.85, 10, h, 0.85)).toBeLessThan(10);
  });

  it('needs a higher threshold for a rarer false alarm', () => {
    expect(cusumThreshold(0.9, 0.8, 10, 10_000)).toBeGreaterThan(cusumThreshold(0.9, 0.8, 10, 1000));
  });
});

describe('detectTrend', () => {
  it('flags a drop and names the night it began', () => {
    const before = Array.from({ length: 20 }, (_, i) => (i % 2 ? 9 : 10));
    const after = Array.from({ length: 10 }, () => 6);
    const alarm = detectTrend(nights([...before, ...after]));
    expect(alarm).not.toBeNull();
    expect(alarm!.began).toBe(20);
    expect(alarm!.raised).toBeGreaterThanOrEqual(20);
    expect(alarm!.raised).toBeLessThan(24);
    expect(alarm!.before).toBeCloseTo(0.95, 2);
    expect(alarm!.after).toBeCloseTo(0.6, 2);
  });

  it('stays quiet on a steady case, and before the warm-up is over', () => {
    expect(detectTrend(nights(Array.from({ length: 200 }, (_, i) => (i % 4 ? 10 : 8))))).toBeNull();
    // Five nights = 50 reference samples < warm-up of 100: a crash right away is not a trend.
    expect(detectTrend(nights([10, 10, 10, 10, 10, 0, 0, 0]))).toBeNull();
    expect(detectTrend(nights([10, 10, 10, 10, 10, 0, 0, 0]), { warmup: 0 })).not.toBeNull();
  });

  it('skips nights without samples (paused runs)', () => {
    const step = cusumStep(cusumStart(), 0, 0);
    expect(step.alarm).toBeNull();
    expect(step.state.statistic).toBe(0);
    expect(step.state.nights).toBe(1);
  });

  it('tests against a lowered estimate of the reference rate', () => {
    const state = { ...cusumStart(), reference: { passes: 95, samples: 100 } };
    const { p0, p1 } = testedRates(state, CUSUM_DEFAULTS);
    expect(p0).toBeLessThan(0.95);
    expect(p0).toBeGreaterThan(0.92);
    expect(p1).toBeCloseTo(p0 - 0.1, 10);
  });

  it('raises about 1 false alarm per 1,000 steady case-nights or fewer', () => {
    const random = createRng(7);
    let alarms = 0;
    const trials = 150;
    for (let t = 0; t < trials; t++) {
      let state = cusumStart();
      for (let k = 0; k < 365; k++) {
        const step = cusumStep(state, binomial(10, 0.9, random), 10);
        if (step.alarm) alarms++;
        state = step.state;
      }
    }
    // Expect ~0.65/1000 (bench); 2/1000 bounds the Monte-Carlo noise of 54,750 case-nights.
    expect(alarms / (trials * 365)).toBeLessThan(0.002);
  });
});
