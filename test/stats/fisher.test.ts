import { describe, expect, it } from 'vitest';
import { boschlooOneSided, comparePassRates, fisherOneSided } from '../../src/stats/index.js';

const s = (pass: number, total: number) => ({ pass, total });

describe('fisherOneSided', () => {
  // Hand-computed hypergeometric tails: P(current passes ≤ observed | all margins).
  it.each([
    [s(3, 3), s(0, 3), 1 / 20], // C(3,3)/C(6,3)
    [s(10, 10), s(7, 10), 120 / 1140], // all 3 failures land in current: C(10,3)/C(20,3)
    [s(5, 5), s(2, 5), 21 / 252], // C(7,2)·C(3,3)/C(10,5)
    [s(38, 40), s(9, 10), 1 - (40 * 39 * 38) / (50 * 49 * 48)], // 1 − P(current all pass)
    [s(38, 40), s(28, 40), 0.0032239991820762434], // scipy.stats.fisher_exact, alternative='less'
  ])('%o vs %o → %f', (baseline, current, expected) => {
    expect(fisherOneSided(baseline, current)).toBeCloseTo(expected, 12);
  });

  it.each([
    [s(0, 0), s(3, 5)],
    [s(3, 5), s(0, 0)],
    [s(10, 10), s(10, 10)],
    [s(0, 10), s(0, 10)],
  ])('is 1 when nothing can show a drop: %o vs %o', (baseline, current) => {
    expect(fisherOneSided(baseline, current)).toBeCloseTo(1, 12);
  });

  it('grows with current passes and shrinks with baseline passes', () => {
    for (let xb = 0; xb <= 12; xb++) {
      for (let xc = 1; xc <= 12; xc++) {
        expect(fisherOneSided(s(xb, 12), s(xc, 12))).toBeGreaterThanOrEqual(
          fisherOneSided(s(xb, 12), s(xc - 1, 12)) - 1e-12,
        );
        if (xb > 0) {
          expect(fisherOneSided(s(xb, 12), s(xc, 12))).toBeLessThanOrEqual(
            fisherOneSided(s(xb - 1, 12), s(xc, 12)) + 1e-12,
          );
        }
      }
    }
  });

  it('handles 1000 samples a side without overflow', () => {
    const p = fisherOneSided(s(950, 1000), s(900, 1000));
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-4);
    expect(fisherOneSided(s(950, 1000), s(950, 1000))).toBeGreaterThan(0.5);
  });

  it.each([s(3, 2), s(-1, 2), s(1.5, 2)])('refuses impossible counts %o', (bad) => {
    expect(() => fisherOneSided(bad, s(1, 2))).toThrow(RangeError);
  });
});

describe('boschlooOneSided', () => {
  // Reference values: scipy.stats.boschloo_exact(table, alternative='less', n=64), scipy 1.17.
  it.each([
    [s(10, 10), s(7, 10), 0.05788803100585946],
    [s(7, 10), s(2, 10), 0.020694732666015646],
    [s(38, 40), s(28, 40), 0.0016485050099533222],
    [s(5, 5), s(2, 5), 0.030924045172511017],
  ])('%o vs %o → %f', (baseline, current, expected) => {
    expect(boschlooOneSided(baseline, current).p).toBeCloseTo(expected, 6);
  });

  it('is never above Fisher’s p (it is the more powerful test)', () => {
    for (let xb = 0; xb <= 10; xb++) {
      for (let xc = 0; xc <= 8; xc++) {
        expect(boschlooOneSided(s(xb, 10), s(xc, 8)).p).toBeLessThanOrEqual(
          fisherOneSided(s(xb, 10), s(xc, 8)) + 1e-12,
        );
      }
    }
  });

  it('is 1 when every current sample passes or no baseline sample did (every table is as extreme), as Fisher’s p', () => {
    for (const [nb, nc] of [
      [10, 8],
      [40, 37],
      [1, 1],
    ] as const) {
      for (let xb = 0; xb <= nb; xb++) {
        expect(boschlooOneSided(s(xb, nb), s(nc, nc)).p).toBe(1);
        expect(fisherOneSided(s(xb, nb), s(nc, nc))).toBeCloseTo(1, 12);
      }
      for (let xc = 0; xc <= nc; xc++) {
        expect(boschlooOneSided(s(0, nb), s(xc, nc)).p).toBe(1);
        expect(fisherOneSided(s(0, nb), s(xc, nc))).toBeCloseTo(1, 12);
      }
    }
    // One failing sample tonight against an all-passing baseline is not a corner.
    expect(boschlooOneSided(s(40, 40), s(36, 37)).p).toBeLessThan(0.5);
  });

  it('falls back to Fisher for very large counts', () => {
    const r = boschlooOneSided(s(950, 1000), s(900, 1000));
    expect(r.method).toBe('fisher');
    expect(r.p).toBe(fisherOneSided(s(950, 1000), s(900, 1000)));
  });
});

describe('comparePassRates', () => {
  it('flags a clear drop with both rates', () => {
    const r = comparePassRates(s(38, 40), s(28, 40));
    expect(r).toMatchObject({
      dropped: true,
      baselineRate: 0.95,
      currentRate: 0.7,
      flaky: true,
      method: 'boschloo',
    });
    expect(r.p).toBeCloseTo(0.0016485, 6);
  });

  it('does not flag a drop that is not significant at the chosen level', () => {
    expect(comparePassRates(s(10, 10), s(7, 10)).dropped).toBe(false); // p ≈ 0.058
    expect(comparePassRates(s(10, 10), s(7, 10), { alpha: 0.1 }).dropped).toBe(true);
  });

  it.each([
    [s(10, 10), false],
    [s(0, 10), false],
    [s(5, 10), true],
    [s(1, 1), false],
  ])('baseline %o is flaky: %s', (baseline, flaky) => {
    expect(comparePassRates(baseline, s(5, 10)).flaky).toBe(flaky);
  });

  it('reports no drop and NaN rate when a side has no samples', () => {
    const r = comparePassRates(s(0, 0), s(0, 10));
    expect(r.dropped).toBe(false);
    expect(r.p).toBe(1);
    expect(r.baselineRate).toBeNaN();
  });

  it.each([0, 1, -0.1, 2])('refuses alpha %f', (alpha) => {
    expect(() => comparePassRates(s(1, 2), s(1, 2), { alpha })).toThrow(RangeError);
  });
});
