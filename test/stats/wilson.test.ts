import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../src/stats/index.js';

describe('wilsonInterval', () => {
  // Published 95% Wilson bounds (Newcombe 1998, Brown–Cai–DasGupta 2001 tables).
  it.each([
    [0, 10, 0, 0.2775],
    [10, 10, 0.7225, 1],
    [5, 10, 0.2366, 0.7634],
    [1, 10, 0.0179, 0.4042],
  ])('%i/%i → [%f, %f]', (pass, total, low, high) => {
    const ci = wilsonInterval(pass, total);
    expect(ci.low).toBeCloseTo(low, 4);
    expect(ci.high).toBeCloseTo(high, 4);
    expect(ci.rate).toBe(pass / total);
  });

  it('is exactly 0 / 1 at the ends', () => {
    expect(wilsonInterval(0, 40).low).toBe(0);
    expect(wilsonInterval(40, 40).high).toBe(1);
  });

  it('says nothing is known when nothing ran', () => {
    const ci = wilsonInterval(0, 0);
    expect([ci.low, ci.high]).toEqual([0, 1]);
    expect(ci.rate).toBeNaN();
  });

  it('contains the observed rate, narrows with more samples and widens with confidence', () => {
    for (let pass = 0; pass <= 20; pass++) {
      const ci = wilsonInterval(pass, 20);
      expect(ci.low).toBeLessThanOrEqual(ci.rate);
      expect(ci.high).toBeGreaterThanOrEqual(ci.rate);
    }
    const width = (p: number, n: number, c?: number) => {
      const ci = wilsonInterval(p, n, c);
      return ci.high - ci.low;
    };
    expect(width(38, 40)).toBeLessThan(width(19, 20));
    expect(width(950, 1000)).toBeLessThan(width(38, 40));
    expect(width(19, 20, 0.99)).toBeGreaterThan(width(19, 20, 0.9));
  });

  it('moves up as passes increase', () => {
    for (let pass = 1; pass <= 40; pass++) {
      expect(wilsonInterval(pass, 40).low).toBeGreaterThan(wilsonInterval(pass - 1, 40).low);
    }
  });

  it('refuses a confidence outside (0, 1)', () => {
    expect(() => wilsonInterval(1, 2, 1)).toThrow(RangeError);
  });
});
