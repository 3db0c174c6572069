import { describe, expect, it } from 'vitest';
import { type DiffOptions, diffCase, diffSuite } from '../../src/baseline/diff.js';
import type { Baseline, BaselineCase, CaseResult, DriftKind, DriftSeverity } from '../../src/types.js';
import { baselineCase, caseError, result } from './fixtures.js';

const failing = [
  { type: 'contains' as const, pass: false, message: 'expected content to contain "30 days"' },
];
const usage = (completion: number, total: number) => ({
  prompt_tokens: 20,
  completion_tokens: completion,
  total_tokens: total,
});
const errored = (kind = caseError('server_error', 'upstream exploded')) =>
  ({ status: 'error', error: kind, content: null, usage: null, finish_reason: null }) as const;

type Row = [
  string,
  Partial<CaseResult>,
  BaselineCase | undefined,
  DiffOptions,
  [DriftKind, DriftSeverity][],
  RegExp | null,
];

const rows: Row[] = [
  ['identical → nothing', {}, baselineCase(), {}, [], null],
  [
    'no baseline case → new_case',
    {},
    undefined,
    {},
    [['new_case', 'info']],
    /^new case: not in the baseline yet$/,
  ],
  ['not_run → nothing, even without baseline', { status: 'not_run' }, undefined, {}, [], null],
  [
    'not_run → nothing against a passing baseline',
    { status: 'not_run', content: null },
    baselineCase(),
    {},
    [],
    null,
  ],
  [
    'pass → fail is regressed',
    { status: 'fail', checks: failing },
    baselineCase(),
    {},
    [['regressed', 'fail']],
    /passed in the baseline, now fails 1 check \(contains\)/,
  ],
  [
    'pass → error is new_error and regressed',
    errored(),
    baselineCase(),
    {},
    [
      ['new_error', 'fail'],
      ['regressed', 'fail'],
    ],
    /new error: server_error: upstream exploded/,
  ],
  [
    'fail → error is new_error only',
    errored(),
    baselineCase({ status: 'fail' }),
    {},
    [['new_error', 'fail']],
    null,
  ],
  [
    'error → error is no drift',
    errored(),
    baselineCase({ status: 'error', error_kind: 'timeout', content: null }),
    {},
    [],
    null,
  ],
  [
    'fail → pass is fixed',
    {},
    baselineCase({ status: 'fail' }),
    {},
    [['fixed', 'info']],
    /fixed: failed in the baseline, passes now/,
  ],
  [
    'error → pass is fixed',
    {},
    baselineCase({ status: 'error', error_kind: 'timeout', content: null, usage: null }),
    {},
    [['fixed', 'info']],
    /errored \(timeout\)/,
  ],
  [
    'fail → fail is no status drift',
    { status: 'fail', checks: failing },
    baselineCase({ status: 'fail' }),
    {},
    [],
    null,
  ],
  [
    'model differs → model_changed warn',
    { model: 'openai/gpt-4o-mini-2024-07-18' },
    baselineCase(),
    {},
    [['model_changed', 'warn']],
    /model changed: openai\/gpt-4o-mini → openai\/gpt-4o-mini-2024-07-18/,
  ],
  [
    'model differs on a candidate run → info',
    { model: 'anthropic/claude-3.5-haiku' },
    baselineCase(),
    { candidate: true },
    [['model_changed', 'info']],
    /candidate run/,
  ],
  ['model unknown on one side → nothing', { model: null }, baselineCase(), {}, [], null],
  [
    'finish_reason differs → warn',
    { finish_reason: 'length' },
    baselineCase(),
    {},
    [['finish_reason_changed', 'warn']],
    /finish_reason changed: stop → length/,
  ],
  [
    'usage +50% → usage_changed warn',
    { usage: usage(150, 170) },
    baselineCase(),
    {},
    [['usage_changed', 'warn']],
    /completion_tokens 100 → 150 \(\+50%\), total_tokens 120 → 170 \(\+42%\)/,
  ],
  ['usage within tolerance → nothing', { usage: usage(120, 140) }, baselineCase(), {}, [], null],
  [
    'usage +20% over a tighter tolerance → warn',
    { usage: usage(120, 140) },
    baselineCase(),
    { usageTolerance: 0.1 },
    [['usage_changed', 'warn']],
    /completion_tokens 100 → 120/,
  ],
  [
    'tiny counts: +5 tokens is +100% but ignored',
    { usage: usage(10, 15) },
    baselineCase({ usage: usage(5, 10) }),
    {},
    [],
    null,
  ],
  [
    'tiny counts: +8 tokens counts',
    { usage: usage(13, 18) },
    baselineCase({ usage: usage(5, 10) }),
    {},
    [['usage_changed', 'warn']],
    /completion_tokens 5 → 13 \(\+160%\)/,
  ],
  [
    'usage drop counts too',
    { usage: usage(40, 60) },
    baselineCase(),
    {},
    [['usage_changed', 'warn']],
    /100 → 40 \(-60%\)/,
  ],
  ['usage absent on one side → nothing', { usage: null }, baselineCase(), {}, [], null],
  [
    'small content edit → content_changed info',
    { content: 'Refunds are accepted within 30 days of purchase!' },
    baselineCase(),
    {},
    [['content_changed', 'info']],
    /content changed \(similarity 0\.\d\d\)/,
  ],
  [
    'rewrite → content_changed warn',
    { content: 'Nope' },
    baselineCase(),
    {},
    [['content_changed', 'warn']],
    /similarity 0\.00/,
  ],
  [
    'threshold is configurable',
    { content: 'Refunds are accepted within 30 days of purchase!' },
    baselineCase(),
    { contentThreshold: 0.99 },
    [['content_changed', 'warn']],
    null,
  ],
  [
    'errored current skips model/usage/content comparisons',
    { ...errored(), model: 'other/model' },
    baselineCase({ status: 'fail' }),
    {},
    [['new_error', 'fail']],
    null,
  ],
  [
    'several drifts at once, in a stable order',
    {
      status: 'fail',
      checks: failing,
      model: 'x/y',
      finish_reason: 'length',
      usage: usage(300, 320),
      content: 'Sorry.',
    },
    baselineCase(),
    {},
    [
      ['regressed', 'fail'],
      ['model_changed', 'warn'],
      ['finish_reason_changed', 'warn'],
      ['usage_changed', 'warn'],
      ['content_changed', 'warn'],
    ],
    null,
  ],
];

describe('diffCase', () => {
  it.each(rows)('%s', (_name, over, baseline, options, expected, message) => {
    const drift = diffCase(result({ case: 'c', ...over }), baseline, options);
    expect(drift.map((d) => [d.kind, d.severity])).toEqual(expected);
    for (const d of drift) expect(d.message).not.toMatch(/\n/);
    if (message) expect(drift.map((d) => d.message).join(' | ')).toMatch(message);
  });

  it('content_changed carries the similarity and both texts', () => {
    const [d] = diffCase(result({ case: 'c', content: 'Refunds within 30 days.' }), baselineCase());
    expect(d).toMatchObject({
      kind: 'content_changed',
      baseline: 'Refunds are accepted within 30 days of purchase.',
      current: 'Refunds within 30 days.',
    });
    expect(d?.similarity).toBeGreaterThan(0);
    expect(d?.similarity).toBeLessThan(1);
  });

  it('new_error carries the error kind and message; usage_changed both usage objects', () => {
    const [newError] = diffCase(
      result({ case: 'c', ...errored(caseError('timeout', 'no answer in 60 s')) }),
      baselineCase(),
    );
    expect(newError?.current).toEqual({ kind: 'timeout', message: 'no answer in 60 s' });
    const [usageDrift] = diffCase(result({ case: 'c', usage: usage(200, 220) }), baselineCase());
    expect(usageDrift).toMatchObject({ baseline: usage(100, 120), current: usage(200, 220) });
  });
});

describe('diffSuite', () => {
  const baseline: Baseline = {
    schema_version: 1,
    suite: 'refunds',
    service: 'router',
    model: 'openai/gpt-4o-mini',
    source_run: 'run-1',
    cases: { a: baselineCase(), b: baselineCase(), removed: baselineCase({ status: 'fail' }) },
  };

  it('aligns by case id, not position, and flags missing cases on a complete run', () => {
    const results = [
      result({ case: 'b', status: 'fail', checks: failing }),
      result({ case: 'a' }),
      result({ case: 'added' }),
    ];
    const { byKey, suiteDrift } = diffSuite({ suite: 'refunds', results, baseline, complete: true });
    expect([...byKey].map(([key, drift]) => [key, drift.map((d) => d.kind)])).toEqual([
      ['refunds/b#0', ['regressed']],
      ['refunds/a#0', []],
      ['refunds/added#0', ['new_case']],
    ]);
    expect(suiteDrift).toHaveLength(1);
    expect(suiteDrift[0]).toMatchObject({ kind: 'missing_case', severity: 'warn', current: null });
    expect(suiteDrift[0]?.message).toMatch(/missing case "removed"/);
  });

  it('reports no missing_case when the run was filtered, sharded or paused', () => {
    const { suiteDrift } = diffSuite({
      suite: 'refunds',
      results: [result({ case: 'a' })],
      baseline,
      complete: false,
    });
    expect(suiteDrift).toEqual([]);
  });

  it('a not_run case is not missing', () => {
    const results = ['a', 'b', 'removed'].map((id) =>
      result({ case: id, status: id === 'a' ? 'pass' : 'not_run' }),
    );
    const { suiteDrift, byKey } = diffSuite({ suite: 'refunds', results, baseline, complete: true });
    expect(suiteDrift).toEqual([]);
    expect(byKey.get('refunds/b#0')).toEqual([]);
  });

  it('every case is new without a baseline; results of other suites are ignored', () => {
    const results = [result({ case: 'a' }), result({ case: 'a', suite: 'other' })];
    const { byKey, suiteDrift } = diffSuite({ suite: 'refunds', results, baseline: null, complete: true });
    expect([...byKey.keys()]).toEqual(['refunds/a#0']);
    expect(byKey.get('refunds/a#0')?.map((d) => d.kind)).toEqual(['new_case']);
    expect(suiteDrift).toEqual([]);
  });

  it('new cases with the same status share one frozen drift list; each status has its own', () => {
    const results = [result({ case: 'a' }), result({ case: 'b' }), result({ case: 'c', status: 'fail' })];
    const { byKey } = diffSuite({ suite: 'refunds', results, baseline: null, complete: true });
    const [a, b, c] = ['a', 'b', 'c'].map((id) => byKey.get(`refunds/${id}#0`)!);
    expect(a).toBe(b);
    expect(Object.isFrozen(a) && Object.isFrozen(a![0])).toBe(true);
    expect(c).not.toBe(a);
    expect([a![0]!.current, c![0]!.current]).toEqual(['pass', 'fail']);
    expect(() => (a as unknown[]).push('x')).toThrow(TypeError);
  });

  it('compares every repeat with the same baseline case and passes options through', () => {
    const results = [0, 1].map((repeat) => result({ case: 'a', repeat, model: 'x/candidate' }));
    const { byKey } = diffSuite({
      suite: 'refunds',
      results,
      baseline,
      complete: false,
      options: { candidate: true },
    });
    expect(byKey.get('refunds/a#1')?.map((d) => [d.kind, d.severity])).toEqual([['model_changed', 'info']]);
    expect(byKey.size).toBe(2);
  });
});
