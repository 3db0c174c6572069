import { describe, expect, it } from 'vitest';
import { normalUpperTail } from '../../src/stats/normal.js';
import { createRng } from '../../src/stats/random.js';
import { rankSumTest, signTestUpper } from '../../src/stats/rank-sum.js';
import { lognormalLatencies } from '../helpers/lognormal.js';

describe('rankSumTest', () => {
  it('matches R: wilcox.test(x, y, alternative = "greater") from its own help page', () => {
    // x <- c(0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46)
    // y <- c(1.15, 0.88, 0.90, 0.74, 1.21); W = 35, p-value = 0.1272
    const x = [0.8, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
    const y = [1.15, 0.88, 0.9, 0.74, 1.21];
    const t = rankSumTest(y, x);
    expect(t.u).toBe(35);
    expect(t.greater).toBeCloseTo(0.1272, 4);
    expect(t.method).toBe('exact');
  });

  it.each([
    [[1, 2, 3], [4, 5, 6], 1 / 20, 1], // the one arrangement of C(6,3)
    [[4, 5, 6], [1, 2, 3], 1, 1 / 20],
    [[1, 1], [1, 1], 1, 1], // all tied: nothing to see either way
    [[10, 20, 30, 40, 50], [60, 70, 80, 90, 100], 1 / 252, 1],
  ])('%o then %o: greater %f, less %f', (x, y, greater, less) => {
    const t = rankSumTest(x, y);
    expect(t.greater).toBeCloseTo(greater, 12);
    expect(t.less).toBeCloseTo(less, 12);
  });

  it('counts ties exactly: the two tails of a sample with ties add up to 1 plus the observed sum', () => {
    const t = rankSumTest([100, 100, 120, 130], [100, 120, 120, 140]);
    expect(t.method).toBe('exact');
    expect(t.greater + t.less).toBeGreaterThan(1);
    expect(t.greater).toBeLessThan(0.5);
  });

  it('agrees with its normal approximation where both apply (pooled 40 vs 41 values)', () => {
    const random = createRng(7);
    const x = Array.from({ length: 20 }, () => Math.round(1000 * Math.exp(random())));
    const y = Array.from({ length: 20 }, () => Math.round(1300 * Math.exp(random())));
    const exact = rankSumTest(x, y);
    // One more baseline value equal to the median moves the statistic little: the approximation takes over.
    const approx = rankSumTest([...x, [...x].sort((a, b) => a - b)[10]!], y);
    expect(exact.method).toBe('exact');
    expect(approx.method).toBe('normal');
    expect(Math.abs(exact.greater - approx.greater)).toBeLessThan(0.03);
  });

  it('keeps its false alarms at its level: 2,000 seeded pairs from one distribution', () => {
    const random = createRng(11);
    const draw = (n: number) => lognormalLatencies(random, n, 800, 0.6);
    for (const [m, n] of [
      [5, 5],
      [10, 10],
      [20, 60],
    ] as const) {
      let alarms = 0;
      for (let trial = 0; trial < 2000; trial++) if (rankSumTest(draw(m), draw(n)).greater <= 0.05) alarms++;
      // At most alpha in expectation; 2,000 trials put 3 standard errors at about 0.015.
      expect(alarms / 2000, `${m} vs ${n}`).toBeLessThanOrEqual(0.065);
    }
  });

  it('refuses an empty sample (a caller bug, not data)', () => {
    expect(() => rankSumTest([], [1])).toThrow(RangeError);
  });
});

describe('signTestUpper', () => {
  it.each([
    [6, 6, 1 / 64],
    [0, 6, 1],
    [5, 6, 7 / 64],
    [0, 0, 1],
  ])('%i of %i → %f', (up, n, p) => {
    expect(signTestUpper(up, n)).toBeCloseTo(p, 12);
  });
});

describe('normalUpperTail', () => {
  it.each([
    [0, 0.5],
    [1.6448536269514722, 0.05],
    [-1.959963984540054, 0.975],
    [3.090232306167813, 0.001],
  ])('P(Z ≥ %f) = %f', (z, p) => {
    expect(normalUpperTail(z)).toBeCloseTo(p, 6);
  });
});
