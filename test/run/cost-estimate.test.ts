import { describe, expect, it } from 'vitest';
import { createCostMeter, isCostCapStop, sampleSpent } from '../../src/run/cost-cap.js';
import {
  describeEstimate,
  estimateCost,
  overCapMessage,
  pricesFromCatalogs,
} from '../../src/run/cost-estimate.js';
import { planCases } from '../../src/run/plan.js';
import { parseSuite } from '../../src/suite/parse.js';
import type { Suite } from '../../src/suite/types.js';
import type { BaselineCase } from '../../src/stored/baseline/types.js';
import type { SampleResult } from '../../src/stored/journal/records.js';
import type { Prices } from '../../src/core/catalog.js';

const PRICES: Prices = {
  'openai/gpt-4o-mini': { prompt: 1, completion: 2 },
  'anthropic/claude-opus-4.1': { prompt: 10, completion: 20 },
};

function suiteOf(text: string): Suite {
  const parsed = parseSuite(text, 'suites/s.yaml');
  if (!('value' in parsed) || !parsed.value) throw new Error(JSON.stringify(parsed));
  return parsed.value;
}

const SUITE = suiteOf(`suite: s
service: router
model: openai/gpt-4o-mini
params: { max_tokens: 100 }
cases:
  - id: known
    prompt: "${'x'.repeat(396)}"
  - id: fresh
    prompt: "${'x'.repeat(396)}"
  - id: judged
    prompt: hi
    expect:
      - judge: { model: openai/gpt-4o-mini, rubric: fine }
      - judge: { model: openai/gpt-4o-mini, equivalent_to_baseline: true }
`);

const base = (cost: number | null, model = 'openai/gpt-4o-mini'): BaselineCase => ({
  status: 'pass',
  requested_model: model,
  model,
  finish_reason: 'stop',
  usage: { prompt_tokens: 1000, completion_tokens: 1000, total_tokens: 2000, cost },
  content: 'ok',
  error_kind: null,
  checks: [],
});

describe('estimateCost', () => {
  const baselines: Record<string, BaselineCase> = { known: base(0.5) };
  const input = (suite: Suite, plan = {}) => ({
    cases: planCases([suite], plan),
    baselineCase: (_suite: string, id: string) => baselines[id] ?? null,
    prices: PRICES,
    maxTokens: () => 512,
  });

  it('prices a case from its baseline cost, else from the prompt and max_tokens, each sample', () => {
    const estimate = estimateCost(input(suiteOf(SUITE_TWO), { repeat: 3 }));
    // known: $0.5 a sample; fresh: (396/4 + 4) prompt tokens at $1/M + 100 at $2/M.
    const fresh = (103 * 1 + 100 * 2) / 1e6;
    expect(estimate.usd).toBeCloseTo(3 * 0.5 + 3 * fresh, 10);
    expect(estimate).toMatchObject({ samples: 6, from_baseline: 1, from_prompt: 1, unpriced: 0 });
  });

  it("prices a candidate's sample from the baseline's tokens at the candidate's price", () => {
    const estimate = estimateCost(input(suiteOf(SUITE_TWO), { model: 'anthropic/claude-opus-4.1' }));
    const known = (1000 * 10 + 1000 * 20) / 1e6;
    const fresh = (103 * 10 + 100 * 20) / 1e6;
    expect(estimate.usd).toBeCloseTo(known + fresh, 10);
  });

  it('counts judge calls, and skips an equivalence judge with no baseline answer to compare', () => {
    const estimate = estimateCost(input(SUITE, { filter: 'judged' }));
    // No baseline for `judged`: the rubric judge is asked, the equivalence judge is not.
    expect(estimate.judge_calls).toBe(1);
    const withBaseline = estimateCost({ ...input(SUITE, { filter: 'judged' }), baselineCase: () => base(0) });
    expect(withBaseline.judge_calls).toBe(2);
    expect(estimate.usd).toBeGreaterThan(0);
  });

  it('counts a repeat: auto case at its most samples, and a resumed case at what is left', () => {
    const auto = estimateCost(input(suiteOf(SUITE_TWO), { repeat: 'auto', filter: 'known' }));
    expect(auto).toMatchObject({ samples: 40, adaptive: 1 });
    expect(auto.usd).toBeCloseTo(40 * 0.5, 10);
    const resumed = estimateCost({ ...input(suiteOf(SUITE_TWO), { filter: 'known' }), samplesLeft: () => 0 });
    expect(resumed).toMatchObject({ samples: 0, usd: 0 });
  });

  it('says which cases it could not price, and leaves them out', () => {
    const estimate = estimateCost(input(suiteOf(SUITE_TWO), { model: 'mystery/model' }));
    // The baseline's recorded cost is another model's; its tokens have no price for this one.
    expect(estimate).toMatchObject({ unpriced: 2, unpriced_models: ['mystery/model'], from_baseline: 0 });
    expect(estimate.usd).toBe(0);
  });

  it('refuses over the cap only, naming the estimate, the cap and each suite', () => {
    const estimate = estimateCost(input(suiteOf(SUITE_TWO)));
    expect(overCapMessage(estimate, { usd: 1, source: '--max-cost' })).toBeNull();
    const message = overCapMessage(estimate, { usd: 0.4, source: 'max_cost' });
    expect(message).toContain(
      'max_cost $0.4: the estimate for the run is $0.5003, over the cap; nothing was sent',
    );
    expect(message).toContain('suite s: $0.5003 (2 cases: 1 from the baseline, 1 from the prompt)');
    // What earlier runs of the command spent counts too.
    expect(overCapMessage(estimate, { usd: 1, source: '--max-cost' }, { spentBefore: 0.6 })).toContain(
      'with the $0.6000 already spent',
    );
  });
});

describe('estimateCost of a conversation', () => {
  // A tool loop of at most 3 requests whose longest tool result is 40 characters (10
  // tokens, and 4 for the message); a scripted conversation of 2 turns.
  const LOOPS = suiteOf(`suite: s
service: router
model: openai/gpt-4o-mini
params: { max_tokens: 100 }
tool_results:
  lookup: "${'r'.repeat(40)}"
  other: short
cases:
  - id: loop
    prompt: "${'x'.repeat(396)}"
    max_steps: 3
`);
  const CHAT = suiteOf(`suite: c
service: router
model: openai/gpt-4o-mini
params: { max_tokens: 100 }
cases:
  - id: chat
    prompt: "${'x'.repeat(396)}"
    turns:
      - user: "${'y'.repeat(36)}"
`);
  const planned = planCases([LOOPS], {});
  const loopCase = planned.find((g) => g.case.id === 'loop')!;
  const withBaseline = (entry: BaselineCase | null) =>
    estimateCost({
      cases: [loopCase],
      baselineCase: () => entry,
      prices: PRICES,
      maxTokens: () => 512,
    });

  it('without a baseline: every request of its most, each sending the conversation so far, an upper bound', () => {
    const loop = withBaseline(null);
    // 3 requests: the prompt (99 + 4 tokens), then each earlier answer (100 + 4) and the
    // longest result (10 + 4) besides: 103, 221, 339 prompt tokens, 100 answer tokens each.
    expect(loop.usd).toBeCloseTo(((103 + 221 + 339) * 1 + 300 * 2) / 1e6, 12);
    expect(loop).toMatchObject({ from_prompt: 1, conversations: 1 });
    expect(describeEstimate(loop)).toContain(
      "1 case from the prompt's length and max_tokens (an upper bound; 1 conversation at max_steps requests a turn, each answer and a tool result sent back)",
    );
    // Scripted turns without tool_results: one request a turn, each sending every user turn
    // (the prompt's 103 tokens and the later turn's 9 + 4) and, the second, the first answer.
    const chat = estimateCost({
      cases: planCases([CHAT], {}),
      baselineCase: () => null,
      prices: PRICES,
      maxTokens: () => 512,
    });
    expect(chat.usd).toBeCloseTo(((116 + 116 + 104) * 1 + 200 * 2) / 1e6, 12);
    expect(chat).toMatchObject({ from_prompt: 1, conversations: 1 });
  });

  it("with a baseline: what the baseline's whole conversation cost, every step of it; not a single request's", () => {
    const trajectory = { steps: 3, calls: [] };
    // The baseline's usage is its steps' added up: that is what one sample costs.
    expect(withBaseline({ ...base(0.0123), trajectory }).usd).toBeCloseTo(0.0123, 12);
    expect(withBaseline({ ...base(0.0123), trajectory })).toMatchObject({
      from_baseline: 1,
      conversations: 0,
    });
    // A baseline recorded before the case was a conversation answered one request: not its cost.
    expect(withBaseline(base(0.0123))).toMatchObject({ from_baseline: 0, from_prompt: 1, conversations: 1 });
  });
});

describe('describeEstimate', () => {
  it('says only what is not counted when nothing was priced', () => {
    const estimate = estimateCost({
      cases: planCases([suiteOf(SUITE_TWO)], {}),
      baselineCase: () => null,
      prices: {},
      maxTokens: () => 512,
    });
    expect(describeEstimate(estimate)).toBe(
      'estimated cost $0 for 2 samples (not counted: 2 cases (or judge calls) of openai/gpt-4o-mini, which no price is known for — add them to prices: in the config)',
    );
  });
});

const SUITE_TWO = `suite: s
service: router
model: openai/gpt-4o-mini
params: { max_tokens: 100 }
cases:
  - id: known
    prompt: "${'x'.repeat(396)}"
  - id: fresh
    prompt: "${'x'.repeat(396)}"
`;

describe('pricesFromCatalogs', () => {
  it("turns the router's USD per token into USD per 1M tokens, the first list's price winning", () => {
    const prices = pricesFromCatalogs([
      [
        { id: 'a/m', alias_target: null, pricing: { prompt: 0.00000015, completion: 0.0000006 } },
        { id: 'b/m', alias_target: null },
      ],
      [{ id: 'a/m', alias_target: null, pricing: { prompt: 1, completion: 1 } }],
      null,
    ]);
    expect(prices).toEqual({ 'a/m': { prompt: 0.15, completion: 0.6 } });
  });
});

describe('the cost meter', () => {
  const cap = { usd: 0.01, source: '--max-cost' as const };
  it('pauses once the spent cost reaches the cap, counting what was spent before', () => {
    const meter = createCostMeter(cap, 0.004, PRICES);
    meter.add({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, cost: 0.005 }, 'openai/gpt-4o-mini');
    expect(meter.reached()).toBeNull();
    // No usage.cost: tokens at the price (1000 × $1/M).
    meter.add({ prompt_tokens: 1000, completion_tokens: 0, total_tokens: 1000 }, 'openai/gpt-4o-mini');
    const stop = meter.reached();
    expect(stop).toMatchObject({ kind: 'paused', error: { kind: 'budget_exceeded', code: 'max_cost' } });
    expect(stop?.error?.message).toBe('spent $0.0100 of --max-cost $0.01');
    expect(isCostCapStop(stop?.error)).toBe(true);
    // A service's own budget is not the user's cap.
    expect(isCostCapStop({ ...stop!.error!, http_status: 403 })).toBe(false);
  });

  it("counts a journaled sample's judge calls with its answer", () => {
    const sample = {
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, cost: 0.001 },
      model: 'openai/gpt-4o-mini',
      checks: [
        {
          type: 'judge',
          pass: true,
          message: '',
          judge: {
            model: 'openai/gpt-4o-mini',
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, cost: 0.002 },
            verdict: 'pass',
            reason: '',
          },
        },
        {
          type: 'judge',
          pass: true,
          message: '',
          judge: { model: null, usage: null, verdict: 'skipped', reason: '' },
        },
      ],
    } as unknown as SampleResult;
    expect(sampleSpent(sample, PRICES)).toBeCloseTo(0.003, 12);
  });
});
