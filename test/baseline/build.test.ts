import { describe, expect, it } from 'vitest';
import type { Baseline } from '../../src/stored/baseline/types.js';
import type { CaseStatus } from '../../src/core/words.js';
import { baselineCase, caseError, fromResults, result } from './fixtures.js';

/** What a baseline keeps of one answered sample's latency (the fixture's 5 ms). */
const ONE_LATENCY = { n: 1, p50: 5, p95: 5, sample: [5] };

function repeats(statuses: CaseStatus[]) {
  return statuses.map((status, repeat) =>
    result({
      case: 'c',
      repeat,
      status,
      content: `answer ${repeat}`,
      error: status === 'error' ? caseError('server_error') : null,
    }),
  );
}

describe('baselineFromEntries (over folded samples)', () => {
  it('records one case per id with fields from the result', async () => {
    const b = await fromResults({ results: [result({ case: 'refund-window' })], previous: null });
    expect(b).toEqual({
      schema_version: 1,
      suite: 'refunds',
      service: 'router',
      model: 'openai/gpt-4o-mini',
      source_run: 'run-2',
      cases: { 'refund-window': baselineCase({ latency_ms: ONE_LATENCY }) },
    });
  });

  it("keeps the latency of the answered samples, sorted, for latency_changed; an error's time is not the model's", async () => {
    const samples = repeats(['pass', 'fail', 'error', 'pass']).map((r, i) => ({
      ...r,
      latency_ms: [900, 700, 60_000, 800][i]!,
    }));
    const b = await fromResults({ results: samples, previous: null });
    expect(b.cases.c?.latency_ms).toEqual({ n: 3, p50: 800, p95: 900, sample: [700, 800, 900] });
    const errored = await fromResults({ results: repeats(['error']), previous: null });
    expect(errored.cases.c).not.toHaveProperty('latency_ms');
  });

  it.each<[CaseStatus[], string, { pass: number; total: number } | undefined]>([
    [['pass'], 'pass', undefined],
    [['fail'], 'fail', undefined],
    [['error'], 'error', undefined],
    [['pass', 'pass', 'fail'], 'pass', { pass: 2, total: 3 }],
    [['pass', 'fail'], 'fail', { pass: 1, total: 2 }],
    [['fail', 'pass', 'pass', 'error'], 'fail', { pass: 2, total: 4 }],
    [['error', 'error', 'fail'], 'error', { pass: 0, total: 3 }],
    [['pass', 'error', 'not_run'], 'error', { pass: 1, total: 2 }],
  ])('repeats %j → %s %j', async (statuses, status, samples) => {
    const b = await fromResults({ results: repeats(statuses), previous: null });
    expect(b.cases.c?.status).toBe(status);
    expect(b.cases.c?.samples).toEqual(samples);
  });

  it('takes the answer from the first sample by repeat index, not by arrival order', async () => {
    const [r0, r1, r2] = repeats(['pass', 'pass', 'pass']);
    const b = await fromResults({ results: [r2!, r0!, r1!], previous: null });
    expect(b.cases.c?.content).toBe('answer 0');
  });

  it('records the error kind of an errored case', async () => {
    const b = await fromResults({ results: repeats(['error']), previous: null });
    expect(b.cases.c?.error_kind).toBe('server_error');
  });

  it('skips not_run samples and results of other suites', async () => {
    const b = await fromResults({
      results: [
        result({ case: 'skipped', status: 'not_run' }),
        result({ case: 'elsewhere', suite: 'other' }),
      ],
      previous: null,
    });
    expect(b.cases).toEqual({});
  });

  const previous: Baseline = {
    schema_version: 1,
    suite: 'refunds',
    service: 'router',
    model: 'openai/gpt-4o-mini',
    source_run: 'run-1',
    cases: {
      a: baselineCase({ content: 'old a' }),
      b: baselineCase({ content: 'old b' }),
      gone: baselineCase({ content: 'old gone' }),
    },
  };

  it('keeps cases of the previous baseline that this (filtered) run did not produce', async () => {
    const b = await fromResults({
      results: [result({ case: 'a', content: 'new a' }), result({ case: 'fresh', content: 'new fresh' })],
      previous,
    });
    expect(Object.fromEntries(Object.entries(b.cases).map(([id, c]) => [id, c.content]))).toEqual({
      a: 'new a',
      b: 'old b',
      gone: 'old gone',
      fresh: 'new fresh',
    });
    expect(b.source_run).toBe('run-2');
  });

  it('with only, replaces just those cases and leaves the rest of previous untouched', async () => {
    const b = await fromResults({
      results: [
        result({ case: 'a', content: 'new a' }),
        result({ case: 'b', content: 'new b' }),
        result({ case: 'fresh', content: 'new fresh' }),
      ],
      previous,
      only: ['b', 'not-in-run'],
    });
    expect(b.cases).toEqual({
      ...previous.cases,
      b: baselineCase({ content: 'new b', latency_ms: ONE_LATENCY }),
    });
    expect(previous.cases.b?.content).toBe('old b');
  });

  it('does not treat a "__proto__" case id specially', async () => {
    const b = await fromResults({ results: [result({ case: '__proto__' })], previous: null });
    expect(Object.keys(b.cases)).toEqual(['__proto__']);
  });
});
