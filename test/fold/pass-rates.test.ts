import { describe, expect, it } from 'vitest';
import { analysePassRates, type CaseSamples, WEAK_BASELINE_SAMPLES } from '../../src/fold/pass-rates.js';
import { meetsExpectations } from '../../src/core/words.js';

const at = (pass: number, total: number) => ({ pass, total });
const repeated = (id: string, now: [number, number], base: [number, number] | null): CaseSamples => ({
  case: id,
  samples: at(...now),
  baseline: base && at(...base),
  adaptive: false,
});

describe('meets its expectations: at least half the samples pass', () => {
  it.each([
    [0, 10, false],
    [4, 10, false],
    [5, 10, true],
    [10, 10, true],
    [0, 1, false],
    [1, 1, true],
  ])('%i/%i → %s', (pass, total, meets) => {
    expect(meetsExpectations(at(pass, total))).toBe(meets);
  });
});

describe('a verdict answers two questions: expectations, then the baseline test', () => {
  // The demo with --repeat 10: five cases, each against a baseline of one passing sample.
  const demo = [
    repeated('release-notes', [0, 10], [1, 1]),
    ...['a', 'b', 'c', 'd'].map((id) => repeated(id, [10, 10], [1, 1])),
  ];

  it('fails a case whose every sample fails, though the adjusted test finds no drop', () => {
    const { stats, caseDrift } = analysePassRates(demo);
    const notes = stats.find((s) => s.case === 'release-notes')!;
    // p = 0.035 alone, not significant once Holm-adjusted over five cases: not "regressed"…
    expect(notes).toMatchObject({ verdict: 'stable', dropped: false, p: 0.03505 });
    expect(caseDrift.has('release-notes')).toBe(false);
    // …but 0 of 10 does not meet its expectations, whatever the baseline says.
    expect(notes.failing).toBe(true);
    expect(stats.filter((s) => s.failing).map((s) => s.case)).toEqual(['release-notes']);
  });

  it('says once per suite that baselines of one sample are weak, as info', () => {
    const { stats, suiteDrift } = analysePassRates(demo);
    expect(stats.every((s) => s.weak_baseline)).toBe(true);
    expect(suiteDrift.map((d) => [d.kind, d.severity])).toEqual([['weak_baseline', 'info']]);
    expect(suiteDrift[0]!.message).toMatch(/5 of 5 repeated cases have 1 baseline sample \(< 10\)/);
  });

  it(`a baseline of ${WEAK_BASELINE_SAMPLES} samples is not weak; one of ${WEAK_BASELINE_SAMPLES - 1} is`, () => {
    const { stats, suiteDrift } = analysePassRates([
      repeated('strong', [10, 10], [WEAK_BASELINE_SAMPLES, WEAK_BASELINE_SAMPLES]),
      repeated('weak', [10, 10], [WEAK_BASELINE_SAMPLES - 1, WEAK_BASELINE_SAMPLES - 1]),
      repeated('new', [10, 10], null),
    ]);
    expect(stats.map((s) => [s.case, s.weak_baseline])).toEqual([
      ['strong', false],
      ['weak', true],
      ['new', false],
    ]);
    expect(suiteDrift[0]?.message).toMatch(/1 of 2 repeated cases has 9 baseline samples/);
  });

  it('a flaky baseline does not excuse a case that now mostly fails', () => {
    const [flaky] = analysePassRates([repeated('flaky', [4, 10], [4, 10])]).stats;
    expect(flaky).toMatchObject({ verdict: 'flaky', dropped: false, weak_baseline: false, failing: true });
    const [half] = analysePassRates([repeated('half', [5, 10], [5, 10])]).stats;
    expect(half).toMatchObject({ verdict: 'flaky', failing: false });
  });

  it('a significant drop fails a case that still meets its expectations', () => {
    const [drop] = analysePassRates([repeated('drop', [6, 10], [40, 40])]).stats;
    expect(drop).toMatchObject({ verdict: 'dropped', dropped: true, failing: true, weak_baseline: false });
  });
});
