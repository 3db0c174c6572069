import { describe, expect, it } from 'vitest';
import { type DiffedCase, type DiffOptions, diffCase } from '../../../src/fold/drift/diff.js';
import type { DriftKind } from '../../../src/record/drift-kinds.js';
import type { Baseline, BaselineCase } from '../../../src/stored/baseline/types.js';
import type { SampleResult } from '../../../src/stored/journal/records.js';
import type { DriftSeverity } from '../../../src/record/drift-kinds.js';
import { addRecorded, recordedCase, startRecorded } from '../../../src/fold/recorded.js';
import { foldSamples } from '../../helpers/fold.js';
import { baselineCase, caseError, result } from '../../baseline/fixtures.js';

/** One sample as the case it is when sampled once: what diffCase reads of a case entry. */
function asCase(sample: SampleResult): DiffedCase {
  const recorded = startRecorded();
  addRecorded(recorded, sample);
  return {
    // What served it (providers, fingerprints, …), folded as the run folds it.
    ...recordedCase(recorded, sample, sample.status === 'pass' ? null : sample),
    status: sample.status,
    error: sample.error,
    checks: sample.checks,
    model: sample.model,
    models: sample.model ? [sample.model] : [],
    finish_reason: sample.finish_reason,
    usage: sample.usage,
    content: sample.content,
    pass_rate: null,
  };
}

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
  Partial<SampleResult>,
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
    'error → error of the same kind is no drift',
    errored(),
    baselineCase({ status: 'error', error_kind: 'server_error', content: null }),
    {},
    [],
    null,
  ],
  [
    'error → error of another kind is error_changed',
    errored(),
    baselineCase({ status: 'error', error_kind: 'timeout', content: null }),
    {},
    [['error_changed', 'fail']],
    /^error changed: timeout → server_error: upstream exploded$/,
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
    const drift = diffCase(asCase(result({ case: 'c', ...over })), baseline, options);
    expect(drift.map((d) => [d.kind, d.severity])).toEqual(expected);
    for (const d of drift) expect(d.message).not.toMatch(/\n/);
    if (message) expect(drift.map((d) => d.message).join(' | ')).toMatch(message);
  });

  it('content_changed carries the similarity and both texts', () => {
    const [d] = diffCase(asCase(result({ case: 'c', content: 'Refunds within 30 days.' })), baselineCase());
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
      asCase(result({ case: 'c', ...errored(caseError('timeout', 'no answer in 60 s')) })),
      baselineCase(),
    );
    expect(newError?.current).toEqual({ kind: 'timeout', message: 'no answer in 60 s' });
    const [usageDrift] = diffCase(asCase(result({ case: 'c', usage: usage(200, 220) })), baselineCase());
    expect(usageDrift).toMatchObject({ baseline: usage(100, 120), current: usage(200, 220) });
  });
});

describe('what served the answer', () => {
  it.each<[string, Partial<SampleResult>, Partial<BaselineCase>, [DriftKind, DriftSeverity][]]>([
    [
      'another provider → provider_changed (fail)',
      { provider: 'Together' },
      { provider: 'OpenAI' },
      [['provider_changed', 'fail']],
    ],
    ['same provider → nothing', { provider: 'OpenAI' }, { provider: 'OpenAI' }, []],
    ['no provider in the baseline → nothing', { provider: 'OpenAI' }, {}, []],
    [
      'another fingerprint → fingerprint_changed (warn)',
      { system_fingerprint: 'fp_2' },
      { system_fingerprint: 'fp_1' },
      [['fingerprint_changed', 'warn']],
    ],
  ])('%s', (_name, over, base, expected) => {
    const drift = diffCase(asCase(result({ case: 'c', ...over })), baselineCase(base));
    expect(drift.map((d) => [d.kind, d.severity])).toEqual(expected);
  });

  // A candidate changes what serves it by design: a Claude candidate against a GPT baseline
  // is another model, provider and backend, none of which is a regression of its own.
  it('a candidate run sees another model, provider and fingerprint as info', () => {
    const served = {
      model: 'anthropic/claude-sonnet-4.5',
      provider: 'Anthropic',
      system_fingerprint: 'fp_2',
    };
    const base = baselineCase({ provider: 'OpenAI', system_fingerprint: 'fp_1' });
    const nightly = diffCase(asCase(result({ case: 'c', ...served })), base);
    const candidate = diffCase(asCase(result({ case: 'c', ...served })), base, { candidate: true });
    expect(nightly.map((d) => [d.kind, d.severity])).toEqual([
      ['model_changed', 'warn'],
      ['provider_changed', 'fail'],
      ['fingerprint_changed', 'warn'],
    ]);
    expect(candidate.map((d) => [d.kind, d.severity])).toEqual([
      ['model_changed', 'info'],
      ['provider_changed', 'info'],
      ['fingerprint_changed', 'info'],
    ]);
    for (const d of candidate) expect(d.message).toMatch(/\(candidate run\)$/);
  });

  it("an error of another kind than the baseline's → error_changed (fail), naming both kinds", () => {
    const drift = diffCase(
      asCase(result({ case: 'c', ...errored(caseError('invalid_model', 'no such model')) })),
      baselineCase({ status: 'error', error_kind: 'server_error' }),
    );
    expect(drift.map((d) => d.kind)).toEqual(['error_changed']);
    expect(drift[0]?.message).toMatch(/server_error → invalid_model/);
  });

  it('a case that answered and now refuses → refused (fail) with the refusal text', () => {
    const drift = diffCase(
      asCase(result({ case: 'c', ...errored(caseError('refusal', "I can't help with that.")) })),
      baselineCase(),
    );
    expect(drift.map((d) => [d.kind, d.severity])).toEqual([
      ['refused', 'fail'],
      ['regressed', 'fail'],
    ]);
    expect(drift[0]?.message).toMatch(/I can't help with that/);
  });
});

describe('a suite folded against its baseline', () => {
  const baseline: Baseline = {
    schema_version: 1,
    suite: 'refunds',
    service: 'router',
    model: 'openai/gpt-4o-mini',
    source_run: 'run-1',
    cases: { a: baselineCase(), b: baselineCase(), removed: baselineCase({ status: 'fail' }) },
  };
  const kinds = (report: Awaited<ReturnType<typeof foldSamples>>) =>
    report.cases.map((c) => [c.id, c.drift.map((d) => d.kind)]);

  it('aligns by case id, not position, and flags missing cases on a complete run', async () => {
    const results = [
      result({ case: 'b', status: 'fail', checks: failing }),
      result({ case: 'a' }),
      result({ case: 'added' }),
    ];
    const report = await foldSamples(results, { baselines: { refunds: baseline } });
    expect(kinds(report)).toEqual([
      ['refunds/b', ['regressed']],
      ['refunds/a', []],
      ['refunds/added', ['new_case']],
    ]);
    const suiteDrift = report.suites[0]!.drift;
    expect(suiteDrift).toHaveLength(1);
    expect(suiteDrift[0]).toMatchObject({ kind: 'missing_case', severity: 'warn', current: null });
    expect(suiteDrift[0]?.message).toMatch(/missing case "removed"/);
  });

  it('reports no missing_case when the run was filtered or sharded', async () => {
    const report = await foldSamples([result({ case: 'a' })], {
      baselines: { refunds: baseline },
      complete: false,
    });
    expect(report.suites[0]!.drift).toEqual([]);
  });

  it('a planned case that was not run is not missing, and has no drift', async () => {
    const report = await foldSamples([result({ case: 'a' })], {
      baselines: { refunds: baseline },
      unsent: { refunds: ['b', 'removed'] },
      stop: { kind: 'paused', error: caseError('insufficient_credit', 'out of credit') },
    });
    expect(report.suites[0]!.drift).toEqual([]);
    expect(report.cases.find((c) => c.case === 'b')).toMatchObject({ status: 'not_run', drift: [] });
    expect(report.run.status).toBe('paused');
  });

  it('every case is new without a baseline; cases of other suites are their own suite', async () => {
    const report = await foldSamples([result({ case: 'a' }), result({ case: 'a', suite: 'other' })]);
    expect(kinds(report)).toEqual([
      ['refunds/a', ['new_case']],
      ['other/a', ['new_case']],
    ]);
    expect(report.suites.map((s) => s.drift)).toEqual([[], []]);
  });

  it('a candidate run sees another model as info, over every sample of the case', async () => {
    const results = [0, 1].map((repeat) => result({ case: 'a', repeat, model: 'x/candidate' }));
    const report = await foldSamples(results, {
      baselines: { refunds: baseline },
      complete: false,
      candidate: 'x/candidate',
    });
    expect(report.cases).toHaveLength(1);
    expect(report.cases[0]!.drift.map((d) => [d.kind, d.severity])).toEqual([['model_changed', 'info']]);
  });
});
