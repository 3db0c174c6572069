import { describe, expect, it } from 'vitest';
import { CaseFold, DISTINCT_ANSWERS, latencySummary } from '../../src/fold/case-fold.js';
import { Tally } from '../../src/util/tally.js';
import { recordedCase } from '../../src/fold/recorded.js';
import type { SampleResult } from '../../src/stored/journal/records.js';
import type { CheckResult } from '../../src/checks/registry.js';
import { caseError } from '../baseline/fixtures.js';
import { sampleResult } from '../helpers/results.js';

const failing: CheckResult[] = [{ type: 'contains', pass: false, message: 'expected "30 days"' }];

function foldOf(samples: SampleResult[]): CaseFold {
  const fold = new CaseFold();
  for (const s of samples) fold.add(s);
  return fold;
}

describe('CaseFold', () => {
  it('keeps the first sample and the first failure by repeat, whatever order they arrive in', () => {
    const samples = [6, 4, 1, 5, 0, 3, 2].map((repeat) =>
      sampleResult({
        case: 'c',
        repeat,
        content: `answer ${repeat}`,
        ...(repeat === 5 ? { status: 'fail', checks: failing } : {}),
        ...(repeat === 2 ? { status: 'error', error: caseError('timeout'), content: null } : {}),
        ...(repeat === 6 ? { status: 'fail', checks: failing } : {}),
      }),
    );
    const fold = foldOf(samples);
    expect(fold.first?.repeat).toBe(0);
    expect(fold.firstFailure?.repeat).toBe(2);
    expect(fold.firstFailure?.error?.kind).toBe('timeout');
    expect({ passed: fold.passed, failed: fold.failed, errored: fold.errored, sent: fold.sent }).toEqual({
      passed: 4,
      failed: 2,
      errored: 1,
      sent: 7,
    });
    // Every arrival order gives the same first sample and first failure.
    for (const order of [[...samples].reverse(), [...samples].sort((a, b) => a.repeat - b.repeat)]) {
      const again = foldOf(order);
      expect([again.first?.repeat, again.firstFailure?.repeat]).toEqual([0, 2]);
    }
  });

  it('has no first failure when every sample passed, and does not count a not_run sample as sent', () => {
    const fold = foldOf([
      sampleResult({ case: 'c', repeat: 0 }),
      sampleResult({ case: 'c', repeat: 1, status: 'not_run', content: null }),
    ]);
    expect(fold.firstFailure).toBeNull();
    expect(fold.sent).toBe(1);
    expect(fold.answers).toBeNull(); // one sample: its answer is `first`'s
  });

  it(`counts at most ${DISTINCT_ANSWERS} distinct answers, the rest only as a number`, () => {
    const contents = [
      ...Array.from({ length: 30 }, (_, i) => `distinct ${i}`),
      'distinct 0',
      'distinct 0',
      'distinct 3',
    ];
    const fold = foldOf(contents.map((content, repeat) => sampleResult({ case: 'c', repeat, content })));
    const answers = [...fold.answers!.values()];
    expect(answers).toHaveLength(DISTINCT_ANSWERS);
    expect(answers.find((a) => a.content === 'distinct 0')?.count).toBe(3);
    expect(answers.find((a) => a.content === 'distinct 3')?.count).toBe(2);
    expect(fold.otherAnswers).toBe(30 - DISTINCT_ANSWERS);
    expect(answers.reduce((n, a) => n + a.count, 0) + fold.otherAnswers).toBe(contents.length);
  });

  it('keeps a null answer (an error) apart from the texts, with its status', () => {
    const fold = foldOf([
      sampleResult({ case: 'c', repeat: 0, content: 'yes' }),
      sampleResult({ case: 'c', repeat: 1, status: 'error', error: caseError('timeout'), content: null }),
      sampleResult({ case: 'c', repeat: 2, content: 'yes' }),
    ]);
    expect([...fold.answers!.values()]).toEqual([
      { content: 'yes', count: 2, status: 'pass' },
      { content: null, count: 1, status: 'error' },
    ]);
  });

  it("sums usage over every sample, and the answered samples' usage apart from the errors'", () => {
    const fold = foldOf([
      sampleResult({
        case: 'c',
        repeat: 0,
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, cost: 0.5 },
      }),
      sampleResult({
        case: 'c',
        repeat: 1,
        status: 'error',
        error: caseError('server_error'),
        usage: { prompt_tokens: 10, completion_tokens: 0, total_tokens: 10, cost: 0.25 },
      }),
      sampleResult({ case: 'c', repeat: 2, usage: null, attempts: 3, wait_ms: 1000 }),
    ]);
    expect([fold.promptTokens, fold.totalTokens, fold.cost, fold.withUsage, fold.withCost]).toEqual([
      20, 25, 0.75, 2, 2,
    ]);
    expect(fold.answered).toEqual({
      with_usage: 1,
      completion_tokens: 5,
      total_tokens: 15,
      cost: 0.5,
      with_cost: 1,
    });
    expect([fold.attempts, fold.waitMs]).toEqual([5, 1000]);
  });

  it('counts passes per expectation and tallies models, providers and error kinds', () => {
    const fold = foldOf([
      sampleResult({ case: 'c', repeat: 0, provider: 'Azure' }),
      sampleResult({ case: 'c', repeat: 1, provider: 'OpenAI', status: 'fail', checks: failing }),
      sampleResult({ case: 'c', repeat: 2, provider: 'Azure', error: caseError('timeout'), status: 'error' }),
    ]);
    expect(fold.checkPasses).toEqual([2]);
    // Most frequent first: the recorded provider field's fold.
    expect(recordedCase(fold.recorded, fold.first, fold.firstFailure).providers).toEqual(['Azure', 'OpenAI']);
    expect(fold.models.entries()).toEqual([['openai/gpt-4o-mini', 3]]);
    expect(fold.errorKinds.entries()).toEqual([['timeout', 1]]);
  });
});

describe('Tally', () => {
  it('counts one value, then several, and passes over null', () => {
    const t = new Tally<string>();
    expect(t.entries()).toEqual([]);
    t.add('a');
    t.add(null);
    t.add('a');
    expect(t.entries()).toEqual([['a', 2]]);
    t.add('b');
    t.add('b');
    t.add('b');
    t.add('c');
    expect(t.entries()).toEqual([
      ['a', 2],
      ['b', 3],
      ['c', 1],
    ]);
  });

  it('lists the most frequent first, ties in the order first seen', () => {
    const t = new Tally<string>();
    for (const k of ['x', 'y', 'z', 'y', 'z', 'w']) t.add(k);
    expect(t.byFrequency()).toEqual(['y', 'z', 'x', 'w']);
  });
});

describe('latencySummary', () => {
  it('gives p50, p95 and max by nearest rank, whatever the order, or null without any', () => {
    expect(latencySummary([])).toBeNull();
    expect(latencySummary([7])).toEqual({ p50: 7, p95: 7, max: 7 });
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(latencySummary(values)).toEqual({ p50: 50, p95: 95, max: 100 });
  });
});
