import { describe, expect, it } from 'vitest';
import {
  bernoulli,
  createRng,
  nextLook,
  nextSampleDecision,
  type Samples,
  sampleLooks,
  sequentialDesign,
} from '../../src/stats/index.js';

const s = (pass: number, total: number) => ({ pass, total });
const CAP = { maxSamples: 40 };

describe('sampleLooks / nextLook', () => {
  it.each([
    [{ maxSamples: 40 }, [10, 20, 30, 40]],
    [{ maxSamples: 25 }, [10, 20, 25]],
    [{ maxSamples: 5 }, [5]],
    [{ maxSamples: 12, minSamples: 4 }, [4, 8, 12]],
  ])('%o → %o', (options, looks) => {
    expect(sampleLooks(options)).toEqual(looks);
  });

  it('tells the runner where the next decision is', () => {
    expect(nextLook(s(0, 0), CAP)).toBe(10);
    expect(nextLook(s(9, 10), CAP)).toBe(20);
    expect(nextLook(s(40, 40), CAP)).toBe(40);
  });

  it.each([{ maxSamples: 0 }, { maxSamples: 2.5 }, { maxSamples: 10, minSamples: 0 }])('refuses %o', (o) => {
    expect(() => sampleLooks(o)).toThrow(RangeError);
  });
});

describe('nextSampleDecision', () => {
  it.each<[Samples, Samples, string]>([
    [s(38, 40), s(5, 5), 'continue'], // before the first look
    [s(38, 40), s(14, 15), 'continue'], // between looks
    [s(40, 40), s(10, 10), 'no_drift'], // never failed on either side
    [s(38, 40), s(10, 10), 'continue'], // the baseline failed sometimes: look again
    [s(0, 40), s(0, 10), 'no_drift'], // cannot drop below never passing
    [s(40, 40), s(0, 10), 'drift'], // collapse: stops at the first look
    [s(38, 40), s(20, 20), 'no_drift'], // clearly fine at the second look
    [s(38, 40), s(28, 40), 'drift'], // 95% → 70% at the cap
    [s(38, 40), s(36, 40), 'no_drift'], // cap reached, no significant drop
  ])('baseline %o, current %o → %s', (baseline, current, expected) => {
    expect(nextSampleDecision(baseline, current, CAP)).toBe(expected);
  });

  it('stops a case with no baseline at the first look where its samples all agree', () => {
    expect(nextSampleDecision(s(0, 0), s(10, 10), CAP)).toBe('no_drift');
    expect(nextSampleDecision(s(0, 0), s(0, 10), CAP)).toBe('no_drift');
    // Between looks nothing is decided.
    expect(nextSampleDecision(s(0, 0), s(7, 7), CAP)).toBe('continue');
  });

  it('samples a case with no baseline and mixed outcomes up to the cap', () => {
    expect(nextSampleDecision(s(0, 0), s(9, 10), CAP)).toBe('continue');
    expect(nextSampleDecision(s(0, 0), s(29, 30), CAP)).toBe('continue');
    expect(nextSampleDecision(s(0, 0), s(40, 40), CAP)).toBe('no_drift');
  });

  it('never continues at or past the cap', () => {
    for (let pass = 0; pass <= 40; pass++) {
      expect(nextSampleDecision(s(30, 40), s(pass, 40), CAP)).not.toBe('continue');
    }
  });

  it('calibrates levels that spend little early and keep the exact worst-case size ≤ alpha', () => {
    const design = sequentialDesign(40, [10, 20, 30, 40], 0.05);
    expect(design.size).toBeLessThanOrEqual(0.05);
    expect(design.size).toBeGreaterThan(0.04);
    for (let k = 1; k < design.levels.length; k++)
      expect(design.levels[k]).toBeGreaterThan(design.levels[k - 1]!);
  });
});

/** Runs one adaptive case to its decision; returns whether it flagged drift and the samples used. */
function simulate(rng: () => number, baseRate: number, nowRate: number, alpha = 0.05) {
  const base = bernoulli(baseRate, rng);
  const now = bernoulli(nowRate, rng);
  const baseline = s(0, 40);
  for (let i = 0; i < 40; i++) if (base()) baseline.pass++;
  const current = s(0, 0);
  for (;;) {
    const target = nextLook(current, { ...CAP, alpha });
    while (current.total < target) {
      if (now()) current.pass++;
      current.total++;
    }
    const decision = nextSampleDecision(baseline, current, { ...CAP, alpha });
    if (decision !== 'continue') return { drift: decision === 'drift', samples: current.total };
  }
}

describe('adaptive sampling by simulation (seeded)', () => {
  const TRIALS = 2_000;

  it.each([0.95, 0.8, 0.5])('false alarms stay ≤ 6%% when both sides pass at %f', (rate) => {
    const rng = createRng(2024);
    let alarms = 0;
    for (let t = 0; t < TRIALS; t++) if (simulate(rng, rate, rate).drift) alarms++;
    expect(alarms / TRIALS).toBeLessThanOrEqual(0.06);
  });

  it('catches 95% → 70% about 90% of the time, and stops stable cases early', () => {
    const rng = createRng(7);
    let caught = 0;
    let stableSamples = 0;
    for (let t = 0; t < TRIALS; t++) {
      if (simulate(rng, 0.95, 0.7).drift) caught++;
      stableSamples += simulate(rng, 0.95, 0.95).samples;
    }
    expect(caught / TRIALS).toBeGreaterThanOrEqual(0.88);
    expect(stableSamples / TRIALS).toBeLessThan(28);
  });

  it('a stricter alpha raises fewer alarms', () => {
    const rng = createRng(99);
    let alarms = 0;
    for (let t = 0; t < TRIALS; t++) if (simulate(rng, 0.8, 0.8, 0.01).drift) alarms++;
    expect(alarms / TRIALS).toBeLessThanOrEqual(0.02);
  });
});
