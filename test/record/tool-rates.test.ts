import { describe, expect, it } from 'vitest';
import { toolRateDrift, type ToolRateCase } from '../../src/record/tool-rates.js';
import type { ToolUse } from '../../src/record/tool-use.js';
import { comparePassRates, holmAdjust } from '../../src/stats/index.js';
import { formatP } from '../../src/stats/format-p.js';

/** A case's tool use over n samples: `triggered` of them called a tool, `valid` of those validly. */
const use = (n: number, triggered: number, valid: number): ToolUse => ({
  answered: n,
  triggered,
  valid,
  trigger_rate: triggered / n,
  valid_rate: triggered === 0 ? null : valid / triggered,
  first: null,
  distinct: [],
  other_calls: 0,
});
/** A tool case every sample of which calls a tool: baseline and tonight's valid calls out of n. */
const calls = (id: string, n: number, was: number, now: number): ToolRateCase => ({
  case: id,
  baseline: use(n, n, was),
  current: use(n, n, now),
});
const kinds = (r: ReturnType<typeof toolRateDrift>) => ({
  cases: [...r.caseDrift].map(([id, list]) => [id, list.map((d) => d.kind)]),
  suite: r.suiteDrift.map((d) => d.kind),
});

describe('valid-call rate over a suite of repeated tool cases', () => {
  it('leaves a provider with a standing 90% valid rate alone, though one case alone would pass the unadjusted test', () => {
    // One night of a provider that always missed about 1 call in 10, 20 cases × 20 samples.
    const was = [18, 19, 17, 18, 20, 18, 18, 19, 17, 18, 18, 19, 18, 17, 18, 20, 18, 19, 18, 18];
    const now = [18, 17, 19, 18, 16, 20, 17, 18, 18, 19, 17, 18, 18, 19, 18, 18, 17, 19, 18, 17];
    const suite = was.map((w, i) => calls(`c${i}`, 20, w, now[i]!));
    // Case c4 went 20/20 → 16/20: tested alone at alpha it "dropped", the old per-case rule's false alarm.
    expect(comparePassRates({ pass: 20, total: 20 }, { pass: 16, total: 20 }).p).toBeLessThan(0.05);
    const r = toolRateDrift(suite);
    expect(kinds(r)).toEqual({ cases: [], suite: [] });
  });

  it('catches a real drop of every case to 90% as the suite, where no single case shows it', () => {
    const suite = Array.from({ length: 20 }, (_, i) => calls(`c${i}`, 20, 20, 18));
    expect(comparePassRates({ pass: 20, total: 20 }, { pass: 18, total: 20 }).p).toBeGreaterThan(0.05);
    const r = toolRateDrift(suite);
    expect(kinds(r)).toEqual({ cases: [], suite: ['tool_call_invalid'] });
    const [d] = r.suiteDrift;
    expect(d).toMatchObject({
      severity: 'fail',
      baseline: { pass: 400, total: 400 },
      current: { pass: 360, total: 400 },
    });
    expect(d!.message).toMatch(
      /^suite valid-call rate 100% \(400\/400\) → 90% \(360\/400\) over 20 repeated tool cases, p = .+ \(stratified exact one-sided \(Cochran–Mantel–Haenszel\), Holm-adjusted cases, alpha 0\.05\)$/,
    );
  });

  it('flags a case by its Holm-adjusted p: a broken case is named, a case significant only alone is not', () => {
    const suite = [
      calls('broken', 20, 20, 5),
      calls('slight', 20, 20, 16),
      ...Array.from({ length: 18 }, (_, i) => calls(`c${i}`, 20, 20, 20)),
    ];
    const raw = suite.map((c) =>
      comparePassRates(
        { pass: c.baseline.valid, total: c.baseline.triggered },
        { pass: c.current.valid, total: c.current.triggered },
      ),
    );
    // Alone, both "dropped" at 0.05; adjusted over 20 cases only the broken one does.
    expect(raw[1]!.p).toBeLessThan(0.05);
    const adjusted = holmAdjust(raw.map((c) => c.p));
    expect(adjusted[1]!).toBeGreaterThan(0.05);
    const r = toolRateDrift(suite);
    expect(kinds(r)).toEqual({ cases: [['broken', ['tool_call_invalid']]], suite: ['tool_call_invalid'] });
    expect(r.caseDrift.get('broken')![0]!.message).toBe(
      `valid-call rate 100% (20/20) → 25% (5/20), p = ${formatP(adjusted[0]!)} (Holm-adjusted over 20 repeated tool cases, alpha 0.05)`,
    );
  });

  it('tests one repeated case on its own, with no suite finding beside it', () => {
    const r = toolRateDrift([
      calls('only', 10, 10, 2),
      { case: 'once', baseline: use(1, 1, 1), current: use(1, 1, 0) },
    ]);
    expect(kinds(r)).toEqual({ cases: [['only', ['tool_call_invalid']]], suite: [] });
    expect(r.caseDrift.get('only')![0]!.message).toMatch(
      /^valid-call rate 100% \(10\/10\) → 20% \(2\/10\), p = \S+ \(alpha 0\.05\)$/,
    );
  });

  it('leaves out cases answered once on both sides and counts no test can read (a hand-edited baseline)', () => {
    const r = toolRateDrift([
      { case: 'once', baseline: use(1, 1, 1), current: use(1, 1, 0) },
      { case: 'edited', baseline: use(10, 10, 12), current: use(10, 10, 0) },
      { case: 'none', baseline: use(0, 0, 0), current: use(10, 10, 0) },
    ]);
    expect(kinds(r)).toEqual({ cases: [], suite: [] });
  });
});

describe('trigger rate over a suite of repeated tool cases, both ways', () => {
  const triggers = (id: string, n: number, was: number, now: number): ToolRateCase => ({
    case: id,
    baseline: use(n, was, was),
    current: use(n, now, now),
  });

  it('flags a case that stopped calling and one that started, with the suite moved the same way', () => {
    const stops = toolRateDrift([triggers('stops', 20, 20, 4), triggers('same', 20, 20, 20)]);
    expect(kinds(stops)).toEqual({
      cases: [['stops', ['tool_trigger_changed']]],
      suite: ['tool_trigger_changed'],
    });
    expect(stops.caseDrift.get('stops')![0]!.message).toMatch(
      /^tool-call rate 100% \(20\/20\) → 20% \(4\/20\), p = \S+ \(Holm-adjusted over both ways of 2 repeated tool cases, alpha 0\.025\)$/,
    );
    const starts = toolRateDrift([triggers('starts', 20, 0, 16), triggers('same', 20, 0, 0)]);
    expect(kinds(starts)).toEqual({
      cases: [['starts', ['tool_trigger_changed']]],
      suite: ['tool_trigger_changed'],
    });
    expect(starts.suiteDrift[0]!.message).toMatch(
      /^suite tool-call rate 0% \(0\/40\) → 40% \(16\/40\) over 2 repeated tool cases, p = \S+ \(stratified exact one-sided \(Cochran–Mantel–Haenszel\), alpha 0\.0125 each way\)$/,
    );
  });

  it('flags both of two cases that moved opposite ways, which cancel in the pooled test', () => {
    const suite = [
      triggers('stops', 20, 20, 0),
      triggers('starts', 20, 0, 20),
      ...Array.from({ length: 8 }, (_, i) => triggers(`c${i}`, 20, 20, 20)),
    ];
    const r = toolRateDrift(suite);
    // The suite's calls add up the same (180/200 → 180/200): no suite finding…
    expect(r.suiteDrift).toEqual([]);
    // …but each case's own test, Holm-adjusted over both ways of the 10 cases, names it.
    expect(kinds(r).cases).toEqual([
      ['stops', ['tool_trigger_changed']],
      ['starts', ['tool_trigger_changed']],
    ]);
    const raw = [...suite, ...suite].map((c, i) =>
      i < suite.length
        ? comparePassRates(
            { pass: c.baseline.triggered, total: 20 },
            { pass: c.current.triggered, total: 20 },
          ).p
        : comparePassRates(
            { pass: c.current.triggered, total: 20 },
            { pass: c.baseline.triggered, total: 20 },
          ).p,
    );
    expect(r.caseDrift.get('starts')![0]!.message).toBe(
      `tool-call rate 0% (0/20) → 100% (20/20), p = ${formatP(holmAdjust(raw)[suite.length + 1]!)} (Holm-adjusted over both ways of 10 repeated tool cases, alpha 0.025)`,
    );
  });

  it('tests one repeated case alone at half the level each way', () => {
    const r = toolRateDrift([triggers('only', 10, 10, 4)]);
    expect(kinds(r)).toEqual({ cases: [['only', ['tool_trigger_changed']]], suite: [] });
    expect(r.caseDrift.get('only')![0]!.message).toMatch(/\(alpha 0\.025 each way\)$/);
    expect(kinds(toolRateDrift([triggers('only', 10, 10, 7)]))).toEqual({ cases: [], suite: [] });
  });

  it('leaves a standing 90% trigger rate alone', () => {
    const was = [18, 19, 17, 18, 20, 18, 18, 19, 17, 18];
    const now = [18, 17, 19, 18, 16, 20, 17, 18, 18, 19];
    expect(kinds(toolRateDrift(was.map((w, i) => triggers(`c${i}`, 20, w, now[i]!))))).toEqual({
      cases: [],
      suite: [],
    });
  });
});
