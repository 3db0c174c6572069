import type { UsageTolerance } from '../../suite/types.js';
import type { BaselineCase } from '../../stored/baseline/types.js';
import type { CaseEntry, UsageTotals } from '../../stored/report/types.js';
import { type Drift, severityOf } from '../../record/drift-kinds.js';
import { type CaseLookup, lookupOf } from '../../stored/baseline/case-lookup.js';
import { DEFAULT_TOLERANCE } from './tolerance.js';
import { roundCost } from '../../core/cost.js';
import { type UsageFigures, usageChanges } from '../../record/usage-change.js';

const known = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Tokens and cost summed over a suite's sent samples (errors included: they were billed),
 * and separately over their judge calls — the suite's bill, for reports. `cost` sums the
 * costs that were known; `cost_samples` says how many that was.
 */
export function suiteUsageTotals(cases: Iterable<UsageCase>): UsageTotals {
  const totals = emptyUsageTotals();
  for (const c of cases) addUsageTotals(totals, c);
  return totals;
}

/** What the suite's bill reads of a case. */
export type UsageCase = { samples: Pick<CaseEntry['samples'], 'sent'> } & {
  stats: Pick<
    CaseEntry['stats'],
    | 'with_usage'
    | 'prompt_tokens'
    | 'completion_tokens'
    | 'total_tokens'
    | 'cost'
    | 'with_cost'
    | 'judge_calls'
    | 'judge_tokens'
    | 'judge_cost'
  >;
};

export function emptyUsageTotals(): UsageTotals {
  return {
    samples: 0,
    with_usage: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    total_tokens: 0,
    cost: null,
    cost_samples: 0,
    judge: { calls: 0, total_tokens: 0, cost: null },
  };
}

/**
 * Adds one case to a suite's bill. Costs are rounded at each step, so the order cases are
 * added in does not show in the total (a suite's cases complete in any order).
 */
export function addUsageTotals(totals: UsageTotals, c: UsageCase): void {
  totals.samples += c.samples.sent;
  totals.with_usage += c.stats.with_usage;
  totals.prompt_tokens += c.stats.prompt_tokens;
  totals.completion_tokens += c.stats.completion_tokens;
  totals.total_tokens += c.stats.total_tokens;
  if (c.stats.cost !== null) {
    totals.cost = roundCost((totals.cost ?? 0) + c.stats.cost);
    totals.cost_samples += c.stats.with_cost;
  }
  totals.judge.calls += c.stats.judge_calls;
  totals.judge.total_tokens += c.stats.judge_tokens;
  if (c.stats.judge_cost !== null)
    totals.judge.cost = roundCost((totals.judge.cost ?? 0) + c.stats.judge_cost);
}

/** What usage drift reads of a case: its id and the usage of its answered samples. */
export interface AnsweredCase {
  case: string;
  stats: { answered: Omit<CaseEntry['stats']['answered'], 'latency_ms'> };
}

/** A baseline's cases as the suite-level findings read them: held whole, or a case at a time. */
export type BaselineCases =
  | { cases: Record<string, Pick<BaselineCase, 'status' | 'usage'>> }
  | CaseLookup<Pick<BaselineCase, 'status' | 'usage'>>;

const FIELDS = ['completion_tokens', 'total_tokens', 'cost'] as const;
type Field = (typeof FIELDS)[number];

/**
 * Suite-level usage_changed (warn): completion tokens, total tokens and cost summed over the
 * cases that have an answer on both sides, each field over the cases that reported it on
 * both sides, so a case added, removed, errored or without cost never skews a total.
 * Repeated samples of a case count as their mean, since the baseline keeps one answer per
 * case. Null when nothing moved beyond `tolerance` (defaults ±25 %) or nothing compares.
 * `entries` holds each case once (a suite's).
 */
export function suiteUsageDrift(
  entries: Iterable<AnsweredCase>,
  baseline: BaselineCases,
  tolerance: UsageTolerance = {},
): Drift | null {
  const lookup = lookupOf(baseline);
  const sums = { baseline: zero(), current: zero(), counted: zero() };
  // A count, not a set of ids: each case comes once (a 100,000-case suite's set took 4 MB).
  let cases = 0;
  for (const entry of entries) {
    const answered = entry.stats.answered;
    if (answered.with_usage === 0) continue;
    const id = entry.case;
    const base = lookup.get(id);
    if (base === undefined || base.status === 'error' || base.usage === null) continue;
    // Repeated samples of a case count as their mean, since the baseline keeps one answer per case.
    const mean: Record<Field, number | null> = {
      completion_tokens: answered.completion_tokens / answered.with_usage,
      total_tokens: answered.total_tokens / answered.with_usage,
      cost: answered.cost === null ? null : answered.cost / answered.with_cost,
    };
    let counted = false;
    for (const field of FIELDS) {
      const from = base.usage[field];
      const now = mean[field];
      if (!known(from) || !known(now)) continue;
      sums.baseline[field] += from;
      sums.current[field] += now;
      sums.counted[field]++;
      counted = true;
    }
    if (counted) cases++;
  }
  if (cases === 0) return null;
  const figures = (side: Record<Field, number>): UsageFigures =>
    Object.fromEntries(FIELDS.map((f) => [f, sums.counted[f] > 0 ? side[f] : null]));
  const limits = { ...DEFAULT_TOLERANCE.usage, ...defined(tolerance) };
  const changes = usageChanges(figures(sums.baseline), figures(sums.current), limits);
  if (changes.length === 0) return null;
  const summary = (side: Record<Field, number>) => ({
    cases,
    completion_tokens: sums.counted.completion_tokens > 0 ? Math.round(side.completion_tokens) : null,
    total_tokens: sums.counted.total_tokens > 0 ? Math.round(side.total_tokens) : null,
    cost: sums.counted.cost > 0 ? roundCost(side.cost) : null,
  });
  return {
    kind: 'usage_changed',
    severity: severityOf('usage_changed'),
    baseline: summary(sums.baseline),
    current: summary(sums.current),
    message: `suite usage changed over ${cases} case${cases === 1 ? '' : 's'} present in both: ${changes.join(', ')}`,
  };
}

function zero(): Record<Field, number> {
  return { completion_tokens: 0, total_tokens: 0, cost: 0 };
}

function defined(value: UsageTolerance): UsageTolerance {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
