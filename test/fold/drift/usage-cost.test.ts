import { describe, expect, it } from 'vitest';
import { usageDrift } from '../../../src/fold/drift/answer.js';
import { costOf, withCost } from '../../../src/core/cost.js';
import { suiteUsageDrift, suiteUsageTotals } from '../../../src/fold/drift/usage-totals.js';
import { formatUsd } from '../../../src/util/numbers.js';
import type { Baseline } from '../../../src/stored/baseline/types.js';
import type { SampleResult } from '../../../src/stored/journal/records.js';
import type { Prices } from '../../../src/core/catalog.js';
import type { Usage } from '../../../src/core/answer.js';
import { foldSamples } from '../../helpers/fold.js';
import { baselineCase, caseError, result } from '../../baseline/fixtures.js';

/** The cases these samples fold into, as a run folds them. */
const entries = async (samples: SampleResult[]) => (await foldSamples(samples)).cases;

const usage = (completion: number, total: number, cost?: number | null): Usage => ({
  prompt_tokens: total - completion,
  completion_tokens: completion,
  total_tokens: total,
  ...(cost !== undefined ? { cost } : {}),
});
const limits = { completion_tokens: 0.25, total_tokens: 0.25, cost: 0.25 };

describe('usageDrift (per case)', () => {
  it.each<[string, Usage, Usage, RegExp | null]>([
    ['unchanged', usage(100, 120, 0.001), usage(100, 120, 0.001), null],
    [
      'tokens +50 %',
      usage(100, 120),
      usage(150, 170),
      /completion_tokens 100 → 150 \(\+50%\), total_tokens 120 → 170 \(\+42%\)/,
    ],
    ['small answers never flag under 8 tokens', usage(4, 10), usage(10, 16), null],
    [
      'cost +40 % with the same tokens (a price change)',
      usage(100, 120, 0.001),
      usage(100, 120, 0.0014),
      /^usage changed: cost \$0\.001 → \$0\.0014 \(\+40%\)$/,
    ],
    ['cost within tolerance', usage(100, 120, 0.001), usage(100, 120, 0.0012), null],
    // 6 more tokens at the same price: +50 % cost, but less than what 8 tokens cost — noise.
    ['cost moved by fewer tokens than the floor', usage(4, 12, 0.000012), usage(10, 18, 0.000018), null],
    ['cost only on one side is not compared', usage(100, 120, 0.001), usage(100, 120), null],
    ['cost from zero', usage(100, 120, 0), usage(100, 120, 0.01), /cost \$0 → \$0\.0100 \(from zero\)/],
  ])('%s', (_name, before, after, expected) => {
    const drift = usageDrift(before, after, limits);
    if (expected === null) expect(drift).toEqual([]);
    else {
      expect(drift.map((d) => [d.kind, d.severity])).toEqual([['usage_changed', 'warn']]);
      expect(drift[0]!.message).toMatch(expected);
    }
  });

  it('honours a per-field tolerance', async () => {
    expect(
      usageDrift(usage(100, 120), usage(150, 170), { ...limits, completion_tokens: 0.6, total_tokens: 0.6 }),
    ).toEqual([]);
    expect(usageDrift(usage(100, 120, 0.001), usage(100, 120, 0.0014), { ...limits, cost: 0.5 })).toEqual([]);
  });
});

describe('costOf and withCost', () => {
  const prices: Prices = { 'kimi-k2-0905-preview': { prompt: 0.6, completion: 2.5 } };
  it.each<[string, Usage | null, string | null, Prices | undefined, number | null]>([
    ['the service gave usage.cost', usage(100, 120, 0.0042), 'kimi-k2-0905-preview', prices, 0.0042],
    [
      'priced per 1M tokens from prices:',
      usage(1_000_000, 3_000_000),
      'kimi-k2-0905-preview',
      prices,
      0.6 * 2 + 2.5,
    ],
    ['a small call', usage(100, 120), 'kimi-k2-0905-preview', prices, (0.6 * 20 + 2.5 * 100) / 1e6],
    ['model not priced', usage(100, 120), 'moonshot-v1-8k', prices, null],
    ['no prices at all', usage(100, 120), 'kimi-k2-0905-preview', undefined, null],
    ['no usage', null, 'kimi-k2-0905-preview', prices, null],
    ['no model', usage(100, 120), null, prices, null],
    ['prototype names are not prices', usage(100, 120), 'constructor', prices, null],
    ['usage.cost null falls back to prices', usage(100, 120, null), 'kimi-k2-0905-preview', prices, 0.000262],
  ])('%s', (_name, u, model, p, expected) => {
    const cost = costOf(u, model, p);
    if (expected === null) expect(cost).toBeNull();
    else expect(cost).toBeCloseTo(expected, 12);
  });

  it('withCost fills only a missing cost', async () => {
    expect(withCost(usage(100, 120), 'kimi-k2-0905-preview', prices)?.cost).toBeCloseTo(0.000262, 12);
    expect(withCost(usage(100, 120, 0.5), 'kimi-k2-0905-preview', prices)?.cost).toBe(0.5);
    const bare = usage(100, 120);
    expect(withCost(bare, 'unknown', prices)).toBe(bare);
  });

  it.each([
    [0, '$0'],
    [0.0123456, '$0.0123'],
    [0.000184321, '$0.000184'],
    [0.0000051, '$0.0000051'],
    [1e-7, '$0.0000001'],
    [1.2345e-9, '$0.00000000123'],
    [0.00999, '$0.00999'],
    [2.5, '$2.5000'],
  ])('formatUsd(%s) = %s', (value, text) => {
    expect(formatUsd(value)).toBe(text);
  });
});

function baselineOf(cases: Record<string, ReturnType<typeof baselineCase>>): Baseline {
  return {
    schema_version: 1,
    suite: 'refunds',
    service: 'router',
    model: 'openai/gpt-4o-mini',
    source_run: 'r0',
    cases,
  };
}

describe('suiteUsageDrift', () => {
  const base = baselineOf({
    a: baselineCase({ usage: usage(100, 120, 0.001) }),
    b: baselineCase({ usage: usage(100, 120, 0.001) }),
    gone: baselineCase({ usage: usage(5000, 5020, 1) }),
    broke: baselineCase({ status: 'error', usage: null, content: null }),
  });

  it('sums cases present on both sides only, and reports both totals', async () => {
    const results = [
      result({ case: 'a', usage: usage(160, 180, 0.0016) }),
      result({ case: 'b', usage: usage(150, 170, 0.0015) }),
      result({ case: 'new', usage: usage(9000, 9020, 5) }),
      result({ case: 'broke', usage: usage(9000, 9020, 5) }),
    ];
    const drift = suiteUsageDrift(await entries(results), base);
    expect(drift).not.toBeNull();
    expect(drift!.severity).toBe('warn');
    expect(drift!.message).toBe(
      'suite usage changed over 2 cases present in both: completion_tokens 200 → 310 (+55%), total_tokens 240 → 350 (+46%), cost $0.002 → $0.0031 (+55%)',
    );
    expect(drift!.baseline).toEqual({ cases: 2, completion_tokens: 200, total_tokens: 240, cost: 0.002 });
    expect(drift!.current).toEqual({ cases: 2, completion_tokens: 310, total_tokens: 350, cost: 0.0031 });
  });

  it('is null within tolerance, or with a wider one', async () => {
    const results = [
      result({ case: 'a', usage: usage(110, 130, 0.0011) }),
      result({ case: 'b', usage: usage(100, 120, 0.001) }),
    ];
    expect(suiteUsageDrift(await entries(results), base)).toBeNull();
    const big = [
      result({ case: 'a', usage: usage(200, 220, 0.002) }),
      result({ case: 'b', usage: usage(200, 220, 0.002) }),
    ];
    expect(
      suiteUsageDrift(await entries(big), base, { completion_tokens: 2, total_tokens: 2, cost: 2 }),
    ).toBeNull();
  });

  it('averages repeated samples of a case and skips errors and not_run', async () => {
    const results = [
      result({ case: 'a', repeat: 0, usage: usage(100, 120, 0.001) }),
      result({ case: 'a', repeat: 1, usage: usage(300, 320, 0.003) }),
      result({
        case: 'a',
        repeat: 2,
        status: 'error',
        error: caseError('timeout'),
        usage: usage(9999, 9999, 9),
      }),
      result({ case: 'b', status: 'not_run', usage: null }),
    ];
    const drift = suiteUsageDrift(await entries(results), base);
    expect(drift!.current).toEqual({ cases: 1, completion_tokens: 200, total_tokens: 220, cost: 0.002 });
  });

  it('compares cost only over cases with a cost on both sides', async () => {
    const results = [
      result({ case: 'a', usage: usage(100, 120) }),
      result({ case: 'b', usage: usage(100, 120, 0.005) }),
    ];
    const drift = suiteUsageDrift(await entries(results), base);
    expect(drift!.baseline).toMatchObject({ cost: 0.001 });
    expect(drift!.current).toMatchObject({ cost: 0.005 });
  });

  it('is null when no case compares', async () => {
    expect(suiteUsageDrift(await entries([result({ case: 'new' })]), base)).toBeNull();
  });
});

describe('suiteUsageTotals', () => {
  it('sums answered samples, counts known costs, and keeps judge calls apart', async () => {
    const judged = {
      type: 'judge' as const,
      pass: true,
      message: 'judge: pass',
      judge: { model: 'openai/gpt-4o-mini', usage: usage(10, 110, 0.0001), verdict: 'pass', reason: '' },
    };
    const totals = suiteUsageTotals(
      await entries([
        result({ case: 'a', usage: usage(100, 120, 0.001), checks: [judged] }),
        result({ case: 'b', usage: usage(50, 60) }),
        result({ case: 'c', status: 'error', error: caseError('empty_content'), usage: usage(0, 20, 0) }),
        result({ case: 'd', status: 'not_run', usage: null }),
        result({ case: 'e', usage: null }),
      ]),
    );
    expect(totals).toEqual({
      samples: 4,
      with_usage: 3,
      prompt_tokens: 20 + 10 + 20,
      completion_tokens: 150,
      total_tokens: 200,
      cost: 0.001,
      cost_samples: 2,
      judge: { calls: 1, total_tokens: 110, cost: 0.0001 },
    });
  });

  it('has a null cost when nothing reported one', async () => {
    expect(suiteUsageTotals(await entries([result({ case: 'a' })])).cost).toBeNull();
  });
});

describe('drift tolerances in the fold', () => {
  const base = baselineOf({
    strict: baselineCase({ content: 'Refunds in 30 days.' }),
    lax: baselineCase({ content: 'Refunds in 30 days.' }),
  });
  const results = [
    result({ case: 'strict', content: 'REFUNDS in 30 days.' }),
    result({ case: 'lax', content: 'REFUNDS in 30 days.' }),
  ];

  it('applies suite tolerance, overridden per case', async () => {
    const report = await foldSamples(results, {
      baselines: { refunds: base },
      drift: {
        suites: { refunds: { content: { normalize: ['case'] } } },
        cases: { 'refunds/strict': { content: { normalize: [] } } },
      },
    });
    expect(report.cases.map((c) => [c.case, c.drift.map((d) => d.kind)])).toEqual([
      ['strict', ['content_changed']],
      ['lax', []],
    ]);
  });

  it("adds suite-level usage drift, within the suite's own usage tolerance", async () => {
    const grown = [
      result({ case: 'strict', usage: { prompt_tokens: 20, completion_tokens: 300, total_tokens: 320 } }),
      result({ case: 'lax', usage: { prompt_tokens: 20, completion_tokens: 300, total_tokens: 320 } }),
    ];
    const report = await foldSamples(grown, { baselines: { refunds: base } });
    expect(report.suites[0]!.drift.map((d) => d.kind)).toEqual(['usage_changed']);
    const relaxed = await foldSamples(grown, {
      baselines: { refunds: base },
      drift: { suites: { refunds: { usage: { completion_tokens: 5, total_tokens: 5 } } } },
    });
    expect(relaxed.suites[0]!.drift).toEqual([]);
  });
});
