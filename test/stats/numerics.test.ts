import { describe, expect, it } from 'vitest';
import { binomialPmf, hypergeometricPmf } from '../../src/stats/distributions.js';
import { logChoose, logFactorial } from '../../src/stats/log-factorial.js';
import { normalQuantile } from '../../src/stats/normal.js';

describe('logFactorial / logChoose', () => {
  it.each([
    [0, 0],
    [1, 0],
    [10, Math.log(3628800)],
    [1000, 5912.128178488163], // math.lgamma(1001)
  ])('ln(%i!) = %f', (n, expected) => {
    expect(logFactorial(n)).toBeCloseTo(expected, 9);
  });

  it('joins the exact table and the Stirling series without a seam', () => {
    // Both sides are ~2e5, so 1e-8 absolute is a relative error of 5e-14.
    expect(logFactorial(20_001) - logFactorial(20_000)).toBeCloseTo(Math.log(20_001), 8);
    expect(Number.isFinite(logFactorial(5_000_000))).toBe(true);
  });

  it('gives binomial coefficients, and -Infinity outside 0..n', () => {
    expect(Math.exp(logChoose(50, 10))).toBeCloseTo(10272278170, -1);
    expect(logChoose(5, 6)).toBe(Number.NEGATIVE_INFINITY);
    expect(logChoose(5, -1)).toBe(Number.NEGATIVE_INFINITY);
  });
});

describe('distributions', () => {
  it.each([
    [10, 0.3],
    [1000, 0.95],
    [40, 0],
    [40, 1],
  ])('binomial(%i, %f) sums to 1 without overflow', (n, rate) => {
    const pmf = binomialPmf(n, rate);
    expect(pmf.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
    expect(pmf.every(Number.isFinite)).toBe(true);
  });

  it('hypergeometric matches a hand count: 3 draws from 6 with 3 successes', () => {
    const { low, pmf } = hypergeometricPmf(6, 3, 3);
    expect(low).toBe(0);
    expect([...pmf].map((p) => p * 20)).toEqual([1, 9, 9, 1].map((x) => expect.closeTo(x, 12)));
  });

  it('hypergeometric of 2000 items stays finite and sums to 1', () => {
    const { pmf } = hypergeometricPmf(2000, 1900, 1000);
    expect(pmf.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
  });
});

describe('normalQuantile', () => {
  it.each([
    [0.5, 0],
    [0.975, 1.959963984540054],
    [0.995, 2.5758293035489004],
    [0.025, -1.959963984540054],
    [1e-10, -6.361340902404056],
  ])('Φ⁻¹(%f) = %f', (p, z) => {
    expect(normalQuantile(p)).toBeCloseTo(z, 12);
  });

  it('is infinite at 0 and 1 and NaN outside', () => {
    expect(normalQuantile(0)).toBe(Number.NEGATIVE_INFINITY);
    expect(normalQuantile(1)).toBe(Number.POSITIVE_INFINITY);
    expect(normalQuantile(1.5)).toBeNaN();
  });
});
