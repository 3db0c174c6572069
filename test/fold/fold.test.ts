import { describe, expect, it } from 'vitest';
import { DISTINCT_ANSWERS } from '../../src/fold/case-fold.js';
import { RunFold } from '../../src/fold/fold.js';
import type { PlanRecord } from '../../src/stored/journal/records.js';
import type { Reporter } from '../../src/fold/reporter.js';
import type { Baseline } from '../../src/stored/baseline/types.js';
import type { SampleResult } from '../../src/stored/journal/records.js';
import type { CheckResult } from '../../src/checks/registry.js';
import { baselineCase, caseError } from '../baseline/fixtures.js';
import { foldSamples } from '../helpers/fold.js';
import { sampleResult } from '../helpers/results.js';

const failing: CheckResult[] = [{ type: 'contains', pass: false, message: 'expected "30 days"' }];
const sample = (repeat: number, over: Partial<SampleResult> = {}) =>
  sampleResult({ case: 'c', repeat, content: `answer ${repeat % 3}`, ...over });

describe('one entry per case', () => {
  it("aggregates a case's samples whatever order they finished in", async () => {
    const samples = [9, 3, 0, 8, 1, 2, 4, 7, 5, 6].map((r) =>
      sample(r, r === 3 || r === 7 || r === 8 ? { status: 'fail', checks: failing } : {}),
    );
    const report = await foldSamples(samples);
    expect(report.cases).toHaveLength(1);
    const c = report.cases[0]!;
    expect(c.samples).toEqual({ planned: 10, sent: 10, passed: 7, failed: 3, errored: 0, not_run: 0 });
    // The answer shown is the first sample's by repeat, the one a baseline keeps.
    expect(c.content).toBe('answer 0');
    expect(c.first_failure?.repeat).toBe(3);
    expect(c.check_passes).toEqual([7]);
    // Most frequent first (ties in the order they were first seen).
    expect(c.answers[0]).toMatchObject({ content: 'answer 0', count: 4, status: 'pass' });
    expect(
      c.answers
        .map((a) => [a.content, a.count])
        .slice(1)
        .sort(),
    ).toEqual([
      ['answer 1', 3],
      ['answer 2', 3],
    ]);
    expect(c.pass_rate).toMatchObject({ verdict: 'new', rate: 0.7 });
    // Without a baseline a repeated case fails only when most samples failed.
    expect(c.status).toBe('pass');
    expect(report.summary).toMatchObject({ cases: 1, samples: 10, passed: 1 });
  });

  it('keeps at most DISTINCT_ANSWERS distinct answers and counts the rest', async () => {
    const samples = Array.from({ length: 20 }, (_, r) => sample(r, { content: `answer number ${r}` }));
    const [c] = (await foldSamples(samples)).cases;
    expect(c!.answers).toHaveLength(DISTINCT_ANSWERS);
    expect(c!.other_answers).toBe(20 - DISTINCT_ANSWERS);
  });

  it('shows a case whose pass rate dropped as failing, with the test in its drift', async () => {
    const baseline: Baseline = {
      schema_version: 1,
      suite: 'refunds',
      service: 'router',
      model: 'openai/gpt-4o-mini',
      source_run: 'r0',
      cases: { c: baselineCase({ samples: { pass: 40, total: 40 }, content: 'answer 0' }) },
    };
    const samples = Array.from({ length: 10 }, (_, r) =>
      sample(r, r < 3 ? {} : { status: 'fail', checks: failing }),
    );
    const report = await foldSamples(samples, { baselines: { refunds: baseline } });
    const c = report.cases[0]!;
    expect(c.status).toBe('fail');
    expect(c.pass_rate?.verdict).toBe('dropped');
    expect(c.drift.map((d) => [d.kind, d.severity])).toEqual([['pass_rate_dropped', 'fail']]);
    expect(c.drift[0]?.message).toMatch(/^pass rate 100% \(40\/40\) → 30% \(3\/10\), p = /);
    expect(report.run.exit_code).toBe(1);
  });

  it('counts cases and samples one way: statuses add up to the cases, suite findings apart', async () => {
    const report = await foldSamples(
      [sample(0), sample(1), sampleResult({ case: 'd', status: 'error', error: caseError('timeout') })],
      { unsent: { refunds: ['e'] }, stop: { kind: 'paused', error: caseError('insufficient_credit') } },
    );
    const s = report.summary;
    expect(s.passed + s.failed + s.errored + s.not_run).toBe(s.cases);
    expect(s).toMatchObject({ cases: 3, samples: 3, passed: 1, errored: 1, not_run: 1 });
    expect(report.run).toMatchObject({ status: 'paused', exit_code: 3 });
  });
});

describe('a suite whose complete cases wait on disk', () => {
  // Two suites: repeated cases (one dropped against its baseline, so Holm over the suite
  // decides it), cases sampled once with drift, an error, a missing baseline case, latencies
  // to compare, usage and a case the run never reached.
  const baselineOf = (suite: string): Baseline => ({
    schema_version: 1,
    suite,
    service: 'router',
    model: 'openai/gpt-4o-mini',
    source_run: 'r0',
    cases: {
      ...Object.fromEntries(
        Array.from({ length: 8 }, (_, i) => [
          `r${i}`,
          baselineCase({
            samples: { pass: 20, total: 20 },
            latency_ms: { n: 5, p50: 100, p95: 120, sample: [90, 95, 100, 110, 120] },
          }),
        ]),
      ),
      once: baselineCase({ content: 'Refunds take 14 days.' }),
      gone: baselineCase(),
      broken: baselineCase(),
    },
  });
  const samplesOf = (suite: string): SampleResult[] => [
    ...Array.from({ length: 8 }, (_, i) =>
      Array.from({ length: 6 }, (_, r) =>
        sampleResult({
          suite,
          case: `r${i}`,
          repeat: r,
          latency_ms: 300 + 10 * r + i,
          usage: {
            prompt_tokens: 20,
            completion_tokens: 100 + i,
            total_tokens: 120 + i,
            cost: 0.0001 * (i + 1),
          },
          ...(i === 0 && r > 1 ? { status: 'fail', checks: failing, content: `wrong ${r}` } : {}),
        }),
      ),
    ).flat(),
    sampleResult({ suite, case: 'once' }),
    sampleResult({ suite, case: 'broken', status: 'error', error: caseError('timeout') }),
    sampleResult({ suite, case: 'fresh', model: 'openai/gpt-4o' }),
  ];
  const fixture = {
    baselines: { a: baselineOf('a'), b: baselineOf('b') },
    unsent: { b: ['later'] },
  };
  const samples = [...samplesOf('a'), ...samplesOf('b')].reverse();

  it('folds the same report as when every entry is held, live or not', async () => {
    const held = await foldSamples(samples, fixture);
    // The fixture exercises what it should: Holm over the suite, latency, errors, missing cases.
    expect(held.cases.find((c) => c.id === 'a/r0')?.drift.map((d) => d.kind)).toContain('pass_rate_dropped');
    expect(held.cases.find((c) => c.id === 'a/r3')?.drift.map((d) => d.kind)).toContain('latency_changed');
    expect(held.suites[0]!.drift.map((d) => d.kind)).toEqual(
      expect.arrayContaining(['missing_case', 'latency_changed']),
    );
    expect(held.cases.find((c) => c.id === 'b/later')?.status).toBe('not_run');
    for (const options of [{ spillHold: 0 }, { spillHold: 3, live: true }, { live: true }]) {
      expect(await foldSamples(samples, { ...fixture, ...options })).toEqual(held);
    }
  });
});

describe('the fold', () => {
  const plan = (suite: string, ids: string[], first: number): PlanRecord => ({
    type: 'plan',
    suite,
    file: `suites/${suite}.yaml`,
    service: 'router',
    requested_model: 'openai/gpt-4o-mini',
    cases: ids.map((id, i) => ({ id, ordinal: first + i, repeat: 1, messages: [] })),
  });

  /** A fold of journals read whole, and the ids of the cases it reports, in order. */
  const reportingIds = () => {
    const cases: string[] = [];
    const fold = new RunFold({
      baseline: async () => ({ baseline: null, path: null }),
      reporters: [{ onSuite: ({ cases: folded }) => void cases.push(...folded.map((c) => c.id)) }],
      stop: null,
    });
    return { fold, cases };
  };

  it('folds a live run suite by suite, in plan order, as soon as each suite is in', async () => {
    const seen: string[] = [];
    const fold = new RunFold({
      baseline: async () => ({ baseline: null, path: null }),
      reporters: [{ onSuite: ({ suite }) => void seen.push(suite.suite) }],
      live: true,
    });
    fold.add(plan('a', ['a1', 'a2'], 0));
    fold.add(plan('b', ['b1'], 2));
    fold.add(sampleResult({ suite: 'b', case: 'b1' }));
    fold.add(sampleResult({ suite: 'a', case: 'a1' }));
    await Promise.resolve();
    // b is complete but waits for a, which comes first in the plan.
    expect(seen).toEqual([]);
    fold.add(sampleResult({ suite: 'a', case: 'a2' }));
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual(['a', 'b']);
    fold.add({ type: 'end', finished_at: '2026-11-22T05:00:09.000Z', status: 'completed', stop: null });
    const { head } = await fold.finish();
    expect(head.suites.map((s) => s.suite)).toEqual(['a', 'b']);
    expect(head.run.status).toBe('completed');
  });

  it('takes reporters still loading: the first suite waits for them, and none is skipped', async () => {
    const seen: string[] = [];
    let loaded!: (reporters: Reporter[]) => void;
    const fold = new RunFold({
      baseline: async () => ({ baseline: null, path: null }),
      reporters: new Promise<Reporter[]>((resolve) => (loaded = resolve)),
      live: true,
    });
    fold.add(plan('a', ['a1'], 0));
    fold.add(plan('b', ['b1'], 1));
    fold.add(sampleResult({ suite: 'a', case: 'a1' }));
    fold.add(sampleResult({ suite: 'b', case: 'b1' }));
    await new Promise((r) => setTimeout(r, 10));
    loaded([
      {
        onSuiteStart: ({ suite }) => void seen.push(`start ${suite.suite}`),
        onCase: ({ entry }) => void seen.push(entry.case),
      },
    ]);
    const { head } = await fold.finish();
    expect(seen).toEqual(['start a', 'a1', 'start b', 'b1']);
    expect(head.summary).toMatchObject({ cases: 2, passed: 2 });
  });

  it('fails where reporters that could not load are awaited, and aborts without them', async () => {
    const fold = new RunFold({
      baseline: async () => ({ baseline: null, path: null }),
      reporters: Promise.reject(new Error('reporter module missing')),
      live: true,
    });
    fold.add(plan('a', ['a1'], 0));
    fold.add(sampleResult({ suite: 'a', case: 'a1' }));
    await expect(fold.finish()).rejects.toThrow('reporter module missing');
    await expect(fold.abort()).resolves.toBeUndefined();
  });

  it('replaces a sample an auth stop cut short by the same sample sent again on resume', async () => {
    const cut = sampleResult({ case: 'c', status: 'error', error: caseError('auth', 'invalid key') });
    const report = await foldSamples([cut, sampleResult({ case: 'c' })]);
    expect(report.cases[0]).toMatchObject({ status: 'pass', samples: { sent: 1, passed: 1, errored: 0 } });
  });

  it('keeps a cut-short auth-stop sample as the error it was when no resume sent it again', async () => {
    const cut = sampleResult({ case: 'c', status: 'error', error: caseError('auth', 'invalid key') });
    const report = await foldSamples([cut, sampleResult({ case: 'd' })], {
      stop: { kind: 'access', error: caseError('auth', 'invalid key') },
    });
    expect(report.cases.map((c) => [c.case, c.status, c.error?.kind ?? null])).toEqual([
      ['c', 'error', 'auth'],
      ['d', 'pass', null],
    ]);
    expect(report.run).toMatchObject({ status: 'paused', exit_code: 4 });
  });

  it('waits for a repeat: auto case until the run says its test decided', async () => {
    const seen: string[] = [];
    const fold = new RunFold({
      baseline: async () => ({ baseline: null, path: null }),
      reporters: [{ onSuite: ({ suite }) => void seen.push(suite.suite) }],
      live: true,
    });
    fold.add({
      ...plan('a', ['a1'], 0),
      cases: [{ id: 'a1', ordinal: 0, repeat: 'auto' as const, messages: [] }],
    });
    for (let r = 0; r < 12; r++)
      fold.add(sampleResult({ suite: 'a', case: 'a1', repeat: r, sampling: 'auto' }));
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual([]);
    fold.caseDone('a', 'a1');
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual(['a']);
  });

  it('folds merged journals in plan order (by ordinal), whatever order the shards came in', async () => {
    const { fold, cases } = reportingIds();
    // Shard 2's journal first: it planned a2 and b1; then shard 1's: a1 and a3.
    const shard2 = [plan('a', ['a2'], 1), plan('b', ['b1'], 3)];
    const shard1 = {
      ...plan('a', ['a1'], 0),
      cases: [...plan('a', ['a1'], 0).cases, ...plan('a', ['a3'], 2).cases],
    };
    for (const record of [
      ...shard2,
      sampleResult({ suite: 'b', case: 'b1' }),
      sampleResult({ suite: 'a', case: 'a2' }),
      shard1,
      sampleResult({ suite: 'a', case: 'a3' }),
      sampleResult({ suite: 'a', case: 'a1' }),
    ])
      fold.add(record);
    const { head } = await fold.finish();
    expect(head.suites.map((s) => s.suite)).toEqual(['a', 'b']);
    expect(cases).toEqual(['a/a1', 'a/a2', 'a/a3', 'b/b1']);
    expect(head.run).toMatchObject({ status: 'completed', exit_code: 0 });
    expect(head.summary).toMatchObject({ cases: 4, passed: 4 });
  });

  it("reports a case its suite's plan does not hold after the plan's cases, as it came", async () => {
    // A case added to the suite's file before a resume: its plan is already in the journal.
    const { fold, cases } = reportingIds();
    fold.add(plan('a', ['a1', 'a2'], 5));
    for (const id of ['a1', 'x', 'a2', 'w']) fold.add(sampleResult({ suite: 'a', case: id }));
    const { head } = await fold.finish();
    expect(cases).toEqual(['a/a1', 'a/a2', 'a/x', 'a/w']);
    expect(head.summary).toMatchObject({ cases: 4, passed: 4 });
  });

  it('once every shard plan is in, folds and reports each suite as soon as all its shards have passed it', async () => {
    const seen: string[] = [];
    const fold = new RunFold({
      baseline: async () => ({ baseline: null, path: null }),
      reporters: [{ onSuite: ({ suite, planned }) => void seen.push(`${suite.suite}:${planned}`) }],
      stop: null,
    });
    // Shard 2 planned b first in its file; the plan order (ordinals) puts a first.
    for (const record of [
      plan('b', ['b2'], 3),
      plan('a', ['a2'], 1),
      plan('a', ['a1'], 0),
      plan('b', ['b1'], 2),
    ])
      fold.add(record);
    fold.plansComplete();
    fold.add(sampleResult({ suite: 'b', case: 'b1' }));
    fold.add(sampleResult({ suite: 'b', case: 'b2' }));
    fold.add(sampleResult({ suite: 'a', case: 'a1' }));
    await fold.drained();
    // b is complete but waits for a: reports come in plan order.
    expect(seen).toEqual([]);
    fold.add(sampleResult({ suite: 'a', case: 'a2' }));
    await fold.drained();
    expect(seen).toEqual(['a:4', 'b:4']);
    const { head } = await fold.finish();
    expect(head.summary).toMatchObject({ cases: 4, passed: 4 });
  });

  it('reads a journal that has no end at all as a run that was killed: what finished counted, the rest not run', async () => {
    const fold = new RunFold({ baseline: async () => ({ baseline: null, path: null }), reporters: [] });
    fold.add(plan('a', ['a1', 'a2', 'a3'], 0));
    fold.add(sampleResult({ suite: 'a', case: 'a1' }));
    fold.add(sampleResult({ suite: 'a', case: 'a2', status: 'fail', checks: failing }));
    const { head } = await fold.finish();
    expect(head.run).toMatchObject({ status: 'interrupted', exit_code: 137, stop_reason: null });
    expect(head.summary).toMatchObject({ cases: 3, samples: 2, passed: 1, failed: 1, not_run: 1 });
  });

  it('takes the last end when a resumed session finished the run', async () => {
    const fold = new RunFold({ baseline: async () => ({ baseline: null, path: null }), reporters: [] });
    fold.add(plan('a', ['a1', 'a2'], 0));
    fold.add(sampleResult({ suite: 'a', case: 'a1' }));
    fold.add({ type: 'end', finished_at: 'x', status: 'interrupted', stop: null });
    fold.add(sampleResult({ suite: 'a', case: 'a2' }));
    fold.add({ type: 'end', finished_at: '2026-11-22T05:00:09.000Z', status: 'completed', stop: null });
    const { head } = await fold.finish();
    expect(head.run).toMatchObject({
      status: 'completed',
      exit_code: 0,
      finished_at: '2026-11-22T05:00:09.000Z',
    });
    expect(head.summary).toMatchObject({ cases: 2, passed: 2, not_run: 0 });
  });

  it('reads a journal without an end that no sample follows as a run that was killed', async () => {
    const fold = new RunFold({ baseline: async () => ({ baseline: null, path: null }), reporters: [] });
    fold.add(plan('a', ['a1', 'a2'], 0));
    fold.add({
      type: 'end',
      finished_at: 'x',
      status: 'paused',
      stop: { kind: 'paused', error: caseError('depleted') },
    });
    // A resumed session sent one more sample, then was killed before it could write its end.
    fold.add(sampleResult({ suite: 'a', case: 'a1' }));
    const { head } = await fold.finish();
    expect(head.run).toMatchObject({ status: 'interrupted', exit_code: 137 });
    expect(head.summary).toMatchObject({ passed: 1, not_run: 1 });
  });
});
