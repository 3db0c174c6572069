import { describe, expect, it } from 'vitest';
import { DEFAULT_TOLERANCE } from '../../src/fold/drift/tolerance.js';
import { LATENCY_SAMPLE_CAP, latencySketch } from '../../src/stats/sketch.js';
import { type LatencyCase, LatencyTally } from '../../src/fold/latency-drift.js';
import { createRng } from '../../src/stats/random.js';
import { lognormalLatencies } from '../helpers/lognormal.js';

const TOLERANCE = DEFAULT_TOLERANCE.latency;
const OPTIONS = { alpha: 0.05, candidate: false, suite: TOLERANCE };

/** A suite's latency verdicts, its cases tallied one at a time as the fold does. */
function analyseLatency(cases: readonly LatencyCase[], options: Parameters<LatencyTally['analyse']>[0]) {
  const tally = new LatencyTally();
  for (const c of cases) tally.add(c);
  return tally.analyse(options);
}

/** A suite of `cases` cases, each `n` samples per side, the current side `factor` times slower; medians 0.75–3 s, spread 0.5. */
function suite(random: () => number, cases: number, n: number, factor: number, sigma = 0.5): LatencyCase[] {
  return Array.from({ length: cases }, (_, i) => {
    const median = 750 * (1 + (i % 4));
    return {
      case: `c${i}`,
      current: lognormalLatencies(random, n, median * factor, sigma),
      baseline: latencySketch(lognormalLatencies(random, n, median, sigma))!,
      tolerance: TOLERANCE,
    };
  });
}

/** Of `trials` seeded suites, how many got a case-level and a suite-level latency_changed. */
function alarms(trials: number, make: (random: () => number) => LatencyCase[]) {
  const random = createRng(20260101);
  let cases = 0;
  let suites = 0;
  for (let t = 0; t < trials; t++) {
    const a = analyseLatency(make(random), OPTIONS);
    if (a.caseDrift.size > 0) cases++;
    if (a.suiteDrift !== null) suites++;
  }
  return { cases, suites };
}

describe('latency_changed: noise does not fire it', () => {
  // Equal distributions on both sides: any alarm is a false one. The cases' rank tests are
  // Holm-adjusted, so a suite raises one on at most alpha (5 %) of the nights; the suite's
  // sign test likewise. Measured with this seed: 43, 0 and 0 suites of 1,000 by a case;
  // 0, 1 and 7 by the suite check.
  it.each([
    ['10 cases × 10 samples', 10, 10],
    ['10 cases × 5 samples', 10, 5],
    ['15 cases × 1 sample', 15, 1],
  ])('1,000 seeded suites of %s at equal latency: at most 50 raise it', (_what, cases, n) => {
    const found = alarms(1000, (random) => suite(random, cases, n, 1));
    expect(found.cases).toBeLessThanOrEqual(50);
    expect(found.suites).toBeLessThanOrEqual(50);
  });

  it('a single sample per side never compares the case (one answer against one answer is noise)', () => {
    const found = alarms(200, (random) => suite(random, 1, 1, 3));
    expect(found).toEqual({ cases: 0, suites: 0 });
  });

  it('a significant change within the tolerance is not drift: +30 %, or +150 ms on a fast answer', () => {
    const steady = (ms: number) => Array.from({ length: 10 }, (_, i) => ms + i);
    const fire = (then: number, now: number) =>
      analyseLatency(
        [{ case: 'a', current: steady(now), baseline: latencySketch(steady(then))!, tolerance: TOLERANCE }],
        OPTIONS,
      ).caseDrift.size;
    expect(fire(1000, 1300)).toBe(0); // 300 ms, but 30 % < 50 %
    expect(fire(100, 250)).toBe(0); // +150 %, but 150 ms < 200 ms
    expect(fire(1000, 1600)).toBe(1); // both beyond
  });
});

describe('latency_changed: a night slower as a whole, within the tolerance', () => {
  // Every case of a night shares its provider's load. A night 30 % slower everywhere is within
  // the ±50 % tolerance, but the rank test sees the shift in each case and a p95 of ten samples
  // crosses the tolerance by chance on top of it. Measured with this seed: judged against their
  // own baselines, cases were flagged in 607 of 1,000 suites; judged beyond the shared move,
  // 48 — 20 of them nights whose mean p95 crossed the tolerance, which the suite check flags.
  it('1,000 seeded suites of 20 cases × 10 samples all 1.3× slower: at most 60 raise it on a case, 30 on the suite', () => {
    const found = alarms(1000, (random) => suite(random, 20, 10, 1.3, 0.35));
    expect(found.cases).toBeLessThanOrEqual(60);
    expect(found.suites).toBeLessThanOrEqual(30);
  });

  it('a case 3× slower on such a night is still flagged, judged beyond the shared move', () => {
    const cases = suite(createRng(11), 20, 10, 1.3, 0.35);
    const slow = lognormalLatencies(createRng(12), 10, 750 * 3 * 1.3, 0.35);
    const a = analyseLatency([{ ...cases[0]!, current: slow }, ...cases.slice(1)], OPTIONS);
    expect(a.suiteDrift).toBeNull();
    expect([...a.caseDrift.keys()]).toEqual(['c0']);
    expect(a.caseDrift.get('c0')!.message).toMatch(
      /; judged beyond ×1\.[2-4]\d, the move the suite's cases shared \(rank test/,
    );
  });

  it('a shared move the suite check flags is drift of each case too, judged against its own baseline', () => {
    const a = analyseLatency(suite(createRng(13), 20, 10, 3, 0.35), OPTIONS);
    expect(a.suiteDrift?.kind).toBe('latency_changed');
    expect(a.caseDrift.size).toBeGreaterThan(15);
    expect(a.caseDrift.get('c0')!.message).not.toMatch(/judged beyond/);
  });
});

describe('latency_changed: a slowdown fires it', () => {
  it('a 3× slowdown of 10 samples per side fires on at least 95 % of 1,000 seeded cases', () => {
    const found = alarms(1000, (random) => suite(random, 1, 10, 3));
    expect(found.cases).toBeGreaterThanOrEqual(950);
  });

  it('says what moved, by how much and how sure, at the tolerance severity (warn by default)', () => {
    const a = analyseLatency(suite(createRng(3), 1, 10, 3), OPTIONS);
    const drift = a.caseDrift.get('c0')!;
    expect(drift).toMatchObject({
      kind: 'latency_changed',
      severity: 'warn',
      baseline: { n: 10 },
      current: { n: 10 },
    });
    expect(drift.message).toMatch(
      /^latency slower: p50 \d+ → \d+ ms \(\+\d+%\), p95 \d+ → \d+ ms \([+-]\d+%\) over 10 → 10 samples \(rank test p = [\d.e-]+, exact, alpha 0\.05\)$/,
    );
  });

  it('fails where the drift rule says so; a candidate run and a speed-up are info', () => {
    const cases = suite(createRng(5), 1, 10, 3);
    const fail = { ...TOLERANCE, severity: 'fail' as const };
    const strict = analyseLatency(
      cases.map((c) => ({ ...c, tolerance: fail })),
      OPTIONS,
    );
    expect(strict.caseDrift.get('c0')?.severity).toBe('fail');
    const candidate = analyseLatency(
      cases.map((c) => ({ ...c, tolerance: fail })),
      { ...OPTIONS, candidate: true },
    );
    expect(candidate.caseDrift.get('c0')?.severity).toBe('info');
    const faster = analyseLatency(
      cases.map((c) => ({
        ...c,
        current: c.baseline!.sample,
        baseline: latencySketch(c.current)!,
        tolerance: fail,
      })),
      OPTIONS,
    );
    expect(faster.caseDrift.get('c0')).toMatchObject({ severity: 'info' });
    expect(faster.caseDrift.get('c0')?.message).toMatch(/^latency faster:/);
  });

  it('the suite check sees a slowdown of cases sampled once, which alone prove nothing', () => {
    const a = analyseLatency(suite(createRng(9), 8, 1, 4, 0.3), OPTIONS);
    expect(a.caseDrift.size).toBe(0);
    expect(a.suiteDrift).toMatchObject({
      kind: 'latency_changed',
      severity: 'warn',
      baseline: { cases: 8 },
      current: { cases: 8 },
    });
    expect(a.suiteDrift!.message).toMatch(
      /^suite latency slower over 8 cases present in both: mean p50 .*; 8 of 8 cases slower \(sign test p = 0\.008, alpha 0\.05\)$/,
    );
  });

  it('compares nothing for a case without a baseline latency (an older baseline) or without answers', () => {
    const [c] = suite(createRng(1), 1, 10, 3);
    expect(analyseLatency([{ ...c!, baseline: undefined }], OPTIONS).caseDrift.size).toBe(0);
    expect(analyseLatency([{ ...c!, current: [] }], OPTIONS).caseDrift.size).toBe(0);
  });
});

describe('latencySketch', () => {
  it('keeps a few latencies whole and sorted, with p50, p95 and their count', () => {
    expect(latencySketch([300, 100, 200])).toEqual({ n: 3, p50: 200, p95: 300, sample: [100, 200, 300] });
    expect(latencySketch([])).toBeNull();
  });

  it(`keeps ${LATENCY_SAMPLE_CAP} evenly spaced quantiles of many, and p50/p95 over all of them`, () => {
    const values = Array.from({ length: 1000 }, (_, i) => 1000 - i);
    const sketch = latencySketch(values)!;
    expect(sketch).toMatchObject({ n: 1000, p50: 500, p95: 950 });
    expect(sketch.sample).toHaveLength(LATENCY_SAMPLE_CAP);
    expect(sketch.sample[0]).toBe(25);
    expect(sketch.sample.at(-1)).toBe(975);
    expect([...sketch.sample].sort((a, b) => a - b)).toEqual(sketch.sample);
  });
});
