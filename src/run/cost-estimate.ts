import { costOf } from '../core/cost.js';
import { formatUsd } from '../util/numbers.js';
import { judgeCap, splitExpectations } from '../checks/judge.js';
import { writeJudgePrompt } from '../checks/judge-prompt.js';
import { countOf } from '../util/numbers.js';
import type { CatalogModel } from '../core/catalog.js';
import { ADAPTIVE_SAMPLING } from '../stats/adaptive.js';
import type { BaselineCase } from '../stored/baseline/types.js';
import type { Prices } from '../core/catalog.js';
import { type Message, tokenCap } from '../core/messages.js';
import { type CostCap, capLabel } from './cost-cap.js';
import type { PlannedCaseGroup } from './plan.js';
import { DEFAULT_MAX_STEPS } from '../suite/types.js';

/**
 * Tokens are guessed from text at four characters a token (English prose; the services'
 * own tokenizers differ a little), plus a few for each message's framing.
 */
const CHARS_PER_TOKEN = 4;
const TOKENS_PER_MESSAGE = 4;

/** What a run (or what is left of it) is expected to cost, and how each part was estimated. */
export interface CostEstimate {
  /** USD over every call a price was known for. */
  usd: number;
  samples: number;
  /** Cases priced from their baseline's recorded cost (or its tokens at today's price). */
  from_baseline: number;
  /** Cases priced from the prompt's length and max_tokens: an upper bound on the answer. */
  from_prompt: number;
  /**
   * Of those, conversations (a tool loop, scripted turns) priced at their most requests:
   * max_steps each turn, each answer max_tokens long and fed back with the longest tool result.
   */
  conversations: number;
  /** Cases no price was known for (no baseline cost, no price for the model): not counted. */
  unpriced: number;
  /** Models without a price, for the message that says what is not counted. */
  unpriced_models: string[];
  /** Judge calls counted (priced from the prompt's length and the judge's max_tokens). */
  judge_calls: number;
  /** Cases of `repeat: auto`, counted at their most samples. */
  adaptive: number;
  suites: {
    suite: string;
    usd: number;
    cases: number;
    from_baseline: number;
    from_prompt: number;
    unpriced: number;
  }[];
}

export interface EstimateInput {
  cases: Iterable<PlannedCaseGroup>;
  /** Samples of a case still to send (a resumed run); by default all it may get. */
  samplesLeft?: (group: PlannedCaseGroup) => number;
  /** A case's baseline entry, when its suite has one. */
  baselineCase: (suite: string, caseId: string) => BaselineCase | null;
  /** USD per 1M tokens by model: the config's `prices:` over the router's list. */
  prices: Prices;
  /** A service's default max_tokens, for a case whose params set none. */
  maxTokens: (service: string) => number;
}

/**
 * The cost of sending these cases, before anything is sent. Per case, one sample costs what
 * its baseline answer cost (its `usage.cost`, or its tokens at the model's price — the
 * candidate's, for a `--model` run); without one, the prompt's length in tokens and the whole
 * max_tokens as the answer, an upper bound. A `repeat: auto` case counts its most samples.
 * Every judge call counts its prompt (with the baseline answer, else max_tokens of text, as
 * the answer judged) and the judge's max_tokens. Pure.
 */
export function estimateCost(input: EstimateInput): CostEstimate {
  const estimate: CostEstimate = {
    usd: 0,
    samples: 0,
    from_baseline: 0,
    from_prompt: 0,
    conversations: 0,
    unpriced: 0,
    unpriced_models: [],
    judge_calls: 0,
    adaptive: 0,
    suites: [],
  };
  const unpriced = new Set<string>();
  const suites = new Map<string, CostEstimate['suites'][number]>();
  for (const group of input.cases) {
    const samples = input.samplesLeft?.(group) ?? (group.adaptive ? ADAPTIVE_SAMPLING.cap : group.repeats);
    if (samples <= 0) continue;
    const suite = group.suite.suite;
    let line = suites.get(suite);
    if (!line)
      suites.set(suite, (line = { suite, usd: 0, cases: 0, from_baseline: 0, from_prompt: 0, unpriced: 0 }));
    line.cases++;
    estimate.samples += samples;
    if (group.adaptive) estimate.adaptive++;
    const base = input.baselineCase(suite, group.case.id);
    const maxTokens = tokenCap(group.params)?.value ?? input.maxTokens(group.service);
    const loop = isConversation(group.case);
    // A conversation's baseline costs what its whole conversation cost (every step's usage
    // added up); a baseline recorded before the case was one answered a single request.
    const recorded =
      base && (!loop || base.trajectory) ? baselineCost(base, group.model, input.prices) : null;
    const answer =
      recorded ??
      (loop
        ? conversationCost(group.case, maxTokens, group.model, input.prices)
        : promptCost(group.case.messages, maxTokens, group.model, input.prices));
    if (answer === null) {
      estimate.unpriced++;
      line.unpriced++;
      unpriced.add(group.model);
      continue;
    }
    if (recorded !== null) {
      estimate.from_baseline++;
      line.from_baseline++;
    } else {
      estimate.from_prompt++;
      line.from_prompt++;
      if (loop) estimate.conversations++;
    }
    let perSample = answer;
    // The answer a judge reads: the baseline's, else as long as max_tokens allows.
    const judged = base?.content ?? 'x'.repeat(maxTokens * CHARS_PER_TOKEN);
    for (const spec of splitExpectations(group.case.expect).judges) {
      // Equivalence alone with no baseline answer is not asked (planJudge skips it).
      if (!spec.rubric && spec.equivalent_to_baseline && base?.content == null) continue;
      const prompt = writeJudgePrompt({
        rubric: spec.rubric ?? null,
        baseline: spec.equivalent_to_baseline ? (base?.content ?? null) : null,
        candidate: judged,
      });
      const cost = promptCost(
        [{ role: 'user', content: prompt }],
        judgeCap(spec) ?? input.maxTokens(spec.service ?? group.service),
        spec.model,
        input.prices,
      );
      if (cost === null) unpriced.add(spec.model);
      else {
        perSample += cost;
        estimate.judge_calls += samples;
      }
    }
    line.usd += perSample * samples;
    estimate.usd += perSample * samples;
  }
  estimate.usd = round(estimate.usd);
  estimate.unpriced_models = [...unpriced].sort();
  estimate.suites = [...suites.values()].map((s) => ({ ...s, usd: round(s.usd) }));
  return estimate;
}

/** What the baseline's answer cost, for a sample of `model`: its own cost, or its tokens at `model`'s price. */
function baselineCost(base: BaselineCase, model: string, prices: Prices): number | null {
  if (base.usage === null) return null;
  if (base.requested_model === model) return costOf(base.usage, base.model, prices);
  // A candidate: the baseline's tokens, at the candidate's price.
  return costOf({ ...base.usage, cost: null }, model, prices);
}

/** The prompt's tokens guessed from its length, and max_tokens of answer, at `model`'s price. */
function promptCost(
  messages: readonly Message[],
  maxTokens: number,
  model: string,
  prices: Prices,
): number | null {
  const tokens = messagesTokens(messages);
  return costOf(
    { prompt_tokens: tokens, completion_tokens: maxTokens, total_tokens: tokens + maxTokens },
    model,
    prices,
  );
}

/** A case that runs as a conversation: a tool loop, or scripted turns (run/tool-loop.ts). */
const isConversation = (c: PlannedCaseGroup['case']): boolean =>
  c.tool_results !== undefined || c.turns !== undefined;

/**
 * An upper bound on a conversation without a baseline: its most requests — `max_steps` in
 * each turn with `tool_results`, else one a turn — each answering max_tokens, and each
 * sending the whole conversation so far: the case's messages, every scripted user turn,
 * and for each earlier request its answer (max_tokens) and one tool result (the longest the
 * case gives; a step that calls several tools at once can send more).
 */
function conversationCost(
  c: PlannedCaseGroup['case'],
  maxTokens: number,
  model: string,
  prices: Prices,
): number | null {
  const turns = c.turns ?? [];
  const steps = (1 + turns.length) * (c.tool_results ? (c.max_steps ?? DEFAULT_MAX_STEPS) : 1);
  const results = Object.values(c.tool_results ?? {}).flatMap((rules) => rules.map((r) => r.result));
  const longest = results.length
    ? Math.max(...results.map((r) => messagesTokens([{ role: 'tool', content: r }])))
    : 0;
  const first =
    messagesTokens(c.messages) + messagesTokens(turns.map((t) => ({ role: 'user', content: t.user })));
  // Each request sends what the one before did, and its answer and a tool result besides.
  const growth = maxTokens + TOKENS_PER_MESSAGE + longest;
  const prompt = steps * first + growth * ((steps * (steps - 1)) / 2);
  const completion = steps * maxTokens;
  return costOf(
    { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    model,
    prices,
  );
}

/** Messages' tokens guessed from their length, with a few for each message's framing. */
function messagesTokens(messages: readonly Message[]): number {
  let tokens = 0;
  for (const m of messages) tokens += Math.ceil(textLength(m.content) / CHARS_PER_TOKEN) + TOKENS_PER_MESSAGE;
  return tokens;
}

function textLength(content: Message['content']): number {
  return typeof content === 'string' ? content.length : JSON.stringify(content ?? '').length;
}

const round = (value: number): number => Math.round(value * 1e10) / 1e10;

/** USD per 1M tokens by model, from the router's model lists (which give USD per token). */
export function pricesFromCatalogs(catalogs: Iterable<readonly CatalogModel[] | null>): Prices {
  const prices: Prices = {};
  for (const catalog of catalogs) {
    for (const m of catalog ?? []) {
      if (!m.pricing || Object.hasOwn(prices, m.id)) continue;
      // Rounded: "0.00000015" × 1e6 is 0.15 on paper, 0.15000000000000002 in floating point.
      prices[m.id] = {
        prompt: round(m.pricing.prompt * 1_000_000),
        completion: round(m.pricing.completion * 1_000_000),
      };
    }
  }
  return prices;
}

/**
 * The estimate in one line, saying how it was made:
 * `estimated cost $0.0123 for 24 samples (3 cases from their baseline's cost, 5 from the
 * prompt's length and max_tokens, an upper bound; 24 judge calls)`.
 */
export function describeEstimate(estimate: CostEstimate): string {
  const how = [
    estimate.from_baseline ? `${countOf(estimate.from_baseline, 'case')} from their baseline's cost` : null,
    estimate.from_prompt
      ? `${countOf(estimate.from_prompt, 'case')} from the prompt's length and max_tokens (an upper bound${
          estimate.conversations
            ? `; ${countOf(estimate.conversations, 'conversation')} at max_steps requests a turn, each answer and a tool result sent back`
            : ''
        })`
      : null,
    estimate.adaptive
      ? `${countOf(estimate.adaptive, 'repeat: auto case')} at ${ADAPTIVE_SAMPLING.cap} samples`
      : null,
    estimate.judge_calls ? countOf(estimate.judge_calls, 'judge call') : null,
  ].filter((part): part is string => part !== null);
  const what = estimate.unpriced ? `${countOf(estimate.unpriced, 'case')} (or judge calls)` : 'judge calls';
  const missing = estimate.unpriced_models.length
    ? `; not counted: ${what} of ${estimate.unpriced_models.join(', ')}, which no price is known for — add them to prices: in the config`
    : '';
  // Nothing priced: the parentheses say only what is not counted.
  const said = how.length ? `${how.join('; ')}${missing}` : missing.slice(2);
  return `estimated cost ${formatUsd(estimate.usd)} for ${countOf(estimate.samples, 'sample')} (${said})`;
}

/**
 * Why a run is refused before anything is sent: what was spent before (a `--models`
 * command's earlier runs) and the estimate together exceed the cap. Null when they do not.
 */
export function overCapMessage(
  estimate: CostEstimate,
  cap: CostCap,
  options: { spentBefore?: number; what?: string } = {},
): string | null {
  const spentBefore = options.spentBefore ?? 0;
  const total = round(spentBefore + estimate.usd);
  if (total <= cap.usd) return null;
  const before = spentBefore > 0 ? ` with the ${formatUsd(spentBefore)} already spent` : '';
  const suites = estimate.suites.slice(0, SUITES_SHOWN).map((s) => {
    const how = [
      s.from_baseline ? `${s.from_baseline} from the baseline` : null,
      s.from_prompt ? `${s.from_prompt} from the prompt` : null,
      s.unpriced ? `${s.unpriced} not priced` : null,
    ].filter((part) => part !== null);
    return `  suite ${s.suite}: ${formatUsd(s.usd)} (${countOf(s.cases, 'case')}: ${how.join(', ')})`;
  });
  if (estimate.suites.length > SUITES_SHOWN)
    suites.push(`  … and ${estimate.suites.length - SUITES_SHOWN} more suites`);
  return [
    `${capLabel(cap)}: the estimate for ${options.what ?? 'the run'} is ${formatUsd(total)}${before}, over the cap; nothing was sent`,
    `  ${describeEstimate(estimate)}`,
    ...suites,
    `  → raise ${cap.source}, send fewer cases (--filter, --shard, a lower --repeat), or pass --ignore-estimate to run it anyway (the cap still pauses the run once the spent cost reaches it)`,
  ].join('\n');
}

/** Suites listed by name in a refusal; the rest are counted. */
const SUITES_SHOWN = 20;
