import { describe, expect, it } from 'vitest';
import { comparePassRates, holmAdjust, stratifiedOneSided, suiteVerdict } from '../../src/stats/index.js';

const s = (pass: number, total: number) => ({ pass, total });
const many = (n: number, baseline: [number, number], current: [number, number]) =>
  Array.from({ length: n }, () => ({ baseline: s(...baseline), current: s(...current) }));

describe('holmAdjust', () => {
  it.each([
    [
      [0.01, 0.04, 0.03],
      [0.03, 0.06, 0.06],
    ],
    [[0.2], [0.2]],
    [
      [0.5, 0.5],
      [1, 1],
    ],
    [[], []],
  ])('%o → %o', (raw, adjusted) => {
    expect(holmAdjust(raw).map((p) => Number(p.toFixed(12)))).toEqual(adjusted);
  });
});

describe('stratifiedOneSided', () => {
  it('equals Fisher for one stratum', () => {
    expect(stratifiedOneSided([{ baseline: s(10, 10), current: s(7, 10) }])).toBeCloseTo(120 / 1140, 12);
  });

  it('multiplies independent extreme strata: two 3/3 vs 0/3 tables → (1/20)²', () => {
    expect(stratifiedOneSided(many(2, [3, 3], [0, 3]))).toBeCloseTo(1 / 400, 12);
  });

  it('ignores strata with an empty side and is 1 when nothing is left', () => {
    expect(stratifiedOneSided([{ baseline: s(0, 0), current: s(0, 5) }])).toBe(1);
  });
});

describe('suiteVerdict', () => {
  it('finds many small drops that no single case shows', () => {
    const v = suiteVerdict(many(20, [10, 10], [8, 10]));
    expect(v.dropped).toBe(true);
    expect(v.p).toBeLessThan(0.001);
    expect(v.method).toMatch(/stratified/);
    expect(v.perCase.every((c) => !c.dropped && c.p > 0.05)).toBe(true);
  });

  it('flags the one case that collapsed, and only that one', () => {
    const cases = [{ baseline: s(40, 40), current: s(0, 40) }, ...many(19, [10, 10], [10, 10])];
    const v = suiteVerdict(cases);
    expect(v.dropped).toBe(true);
    expect(v.perCase.map((c) => c.dropped)).toEqual([true, ...Array(19).fill(false)]);
    expect(v.perCase[0]!.adjustedP).toBeGreaterThanOrEqual(v.perCase[0]!.p);
  });

  it('does not flag a stable suite', () => {
    const v = suiteVerdict(many(20, [9, 10], [9, 10]));
    expect(v.dropped).toBe(false);
    expect(v.perCase.some((c) => c.dropped)).toBe(false);
  });

  it('tests a single case on its own', () => {
    const v = suiteVerdict([{ baseline: s(38, 40), current: s(28, 40) }]);
    expect(v.p).toBe(comparePassRates(s(38, 40), s(28, 40)).p);
    expect(v.perCase[0]).toMatchObject({ dropped: true });
  });

  it('has nothing to say about no cases', () => {
    expect(suiteVerdict([])).toMatchObject({ dropped: false, p: 1, perCase: [] });
  });
});
