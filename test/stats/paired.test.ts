import { describe, expect, it } from 'vitest';
import { bernoulli, createRng, pairedTest } from '../../src/stats/index.js';

const s = (pass: number, total: number) => ({ pass, total });

/** Single-sample pairs: `both` pass on both sides, `regress` ref pass → cand fail, `fix` the reverse, `none` fail both. */
function table(both: number, regress: number, fix: number, none: number) {
  return [
    ...Array.from({ length: both }, () => ({ reference: s(1, 1), candidate: s(1, 1) })),
    ...Array.from({ length: regress }, () => ({ reference: s(1, 1), candidate: s(0, 1) })),
    ...Array.from({ length: fix }, () => ({ reference: s(0, 1), candidate: s(1, 1) })),
    ...Array.from({ length: none }, () => ({ reference: s(0, 1), candidate: s(0, 1) })),
  ];
}

/** P(X ≥ k) for X ~ Binomial(n, ½), in exact integers: an oracle independent of the code under test. */
function exactUpper(k: number, n: number): number {
  const choose = (a: number, b: number) => {
    let r = 1n;
    for (let i = 1n; i <= BigInt(b); i++) r = (r * (BigInt(a) - i + 1n)) / i;
    return r;
  };
  let sum = 0n;
  for (let x = k; x <= n; x++) sum += choose(n, x);
  // Scale before dividing so the quotient keeps 15 significant digits.
  return Number((sum * 10n ** 18n) / 2n ** BigInt(n)) / 1e18;
}

/** The mid-p tail P(X > k) + ½ P(X = k), from the exact oracle above. */
const midUpper = (k: number, n: number) => (exactUpper(k, n) + exactUpper(k + 1, n)) / 2;

describe('pairedTest: McNemar (mid-p) on single samples', () => {
  it('counts 8 regressions against 2 fixes by hand: p = (45/2 + 10 + 1)/1024, p_better = (45/2 + 968)/1024', () => {
    const t = pairedTest(table(30, 8, 2, 5));
    expect(t).toMatchObject({ method: 'mcnemar', cases: 45, regressions: 8, fixes: 2 });
    // Binomial(10, ½) counts of 0..10 ways: 1 10 45 120 210 252 210 120 45 10 1.
    expect(t.p).toBeCloseTo(33.5 / 1024, 14);
    expect(t.p_better).toBeCloseTo(990.5 / 1024, 14);
  });

  // Fagerland, Lydersen & Laake (2013), "The McNemar test for binary matched-pairs data",
  // BMC Med Res Methodol 13:91: airway hyper-responsiveness before/after, 1 vs 7 discordant
  // pairs: exact conditional two-sided p = 0.070 (twice the one-sided 9/256), mid-p 0.039
  // (twice the one-sided (1 + 8/2)/256), the test the paper recommends over the exact one.
  it('reproduces the textbook example: 1 vs 7 discordant pairs, two-sided mid-p = 0.039', () => {
    const t = pairedTest(table(12, 1, 7, 1));
    expect(t.p_better).toBeCloseTo(5 / 256, 14);
    expect(Number((2 * t.p_better).toFixed(3))).toBe(0.039);
    expect(Number((2 * exactUpper(7, 8)).toFixed(3))).toBe(0.07);
    expect(t.p).toBeCloseTo((256 - 1 - 8 + 4) / 256, 14);
  });

  // Agresti, Categorical Data Analysis: presidential approval of 1,600 people in two surveys
  // (794 approve both, 150 approve → disapprove, 86 the reverse, 570 disapprove both).
  it("matches a mid-p from exact binomial sums on Agresti's 150 vs 86 discordant pairs", () => {
    const t = pairedTest(table(794, 150, 86, 570));
    expect(t.regressions).toBe(150);
    expect(t.p / midUpper(150, 236)).toBeCloseTo(1, 9);
    expect(t.p).toBeGreaterThan(1e-5);
    expect(t.p).toBeLessThan(3e-5);
  });

  it('has nothing to say without discordant pairs, and leaves out cases with no sample on a side', () => {
    const t = pairedTest([...table(5, 0, 0, 5), { reference: s(0, 0), candidate: s(0, 1) }]);
    expect(t).toMatchObject({ cases: 10, regressions: 0, fixes: 0, p: 1, p_better: 1 });
  });
});

describe('pairedTest: the sign test over cases with repeats', () => {
  it('counts each case once: equal sample counts, a fair coin per differing case', () => {
    const t = pairedTest([
      { reference: s(10, 10), candidate: s(0, 10) },
      { reference: s(9, 10), candidate: s(8, 10) },
      { reference: s(5, 10), candidate: s(7, 10) },
      { reference: s(10, 10), candidate: s(10, 10) },
    ]);
    expect(t).toMatchObject({ method: 'sign', cases: 4, regressions: 2, fixes: 1 });
    // Mid-p of 2 of 3 fair coins: P(X > 2) + ½ P(X = 2) = (1 + 3/2)/8 — a case that lost
    // everything counts no more than one that lost a sample.
    expect(t.p).toBeCloseTo(2.5 / 8, 14);
    expect(t.p_better).toBeCloseTo((4 + 3 / 2) / 8, 14);
  });

  it("takes the chance of a regression from the case's split of passes when counts differ", () => {
    // 10 passes of 11 samples, 10 of them the candidate's: the one failure lands on the
    // reference with chance 1/11 (a fix), on the candidate with 10/11 (a regression): mid-p ½ · 10/11.
    const t = pairedTest([{ reference: s(1, 1), candidate: s(9, 10) }]);
    expect(t).toMatchObject({ regressions: 1, fixes: 0 });
    expect(t.p).toBeCloseTo(5 / 11, 12);
    expect(t.p_better).toBe(1);
  });

  // Cases of every difficulty, 1-sample references against 10-sample candidates of the
  // same per-case rates: a fair coin per differing case would call the candidate worse far
  // too often (a 90 % case's 10 samples are rarely all passes); the split does not.
  it('keeps false alarms at alpha with 1-sample references against 10 candidate samples', () => {
    const random = createRng(2024);
    const trials = 2000;
    let worse = 0;
    let better = 0;
    for (let t = 0; t < trials; t++) {
      const cases = Array.from({ length: 40 }, (_, i) => {
        const rate = 0.5 + (0.5 * i) / 39;
        const draw = bernoulli(rate, random);
        let candidate = 0;
        for (let k = 0; k < 10; k++) if (draw()) candidate++;
        return { reference: s(draw() ? 1 : 0, 1), candidate: s(candidate, 10) };
      });
      const result = pairedTest(cases);
      if (result.p <= 0.05) worse++;
      if (result.p_better <= 0.05) better++;
    }
    // 5 % of 2,000 is 100; the Monte-Carlo error is about ±20.
    expect(worse).toBeLessThanOrEqual(120);
    expect(better).toBeLessThanOrEqual(120);
  });

  it('equals the McNemar result when every case has one sample a side', () => {
    const single = pairedTest(table(20, 6, 1, 3));
    expect(single.method).toBe('mcnemar');
    expect(single.p).toBeCloseTo(midUpper(6, 7), 14);
  });
});
