import type { Baseline, CaseResult, Drift, UsageTolerance, UsageTotals } from '../types.js';
import { DEFAULT_TOLERANCE } from './tolerance.js';
import { type UsageFigures, usageChanges } from './usage-change.js';

/** Costs are summed in floating point; rounding keeps reports and their diffs stable. */
const roundCost = (value: number): number => Math.round(value * 1e10) / 1e10;
const known = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Tokens and cost summed over the samples that came back (answers, not_run excluded), and
 * separately over their judge calls — the suite's bill, for reports. `cost` sums the costs
 * that were known; `cost_samples` says how many that was.
 */
export function suiteUsageTotals(results: readonly CaseResult[]): UsageTotals {
  const totals: UsageTotals = {
    samples: 0,
    with_usage: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    total_tokens: 0,
    cost: null,
    cost_samples: 0,
    judge: { calls: 0, total_tokens: 0, cost: null },
  };
  for (const r of results) {
    if (r.status === 'not_run') continue;
    totals.samples++;
    for (const check of r.checks) {
      if (!check.judge || check.judge.verdict === 'skipped') continue;
      totals.judge.calls++;
      const u = check.judge.usage;
      if (known(u?.total_tokens)) totals.judge.total_tokens += u.total_tokens;
      if (known(u?.cost)) totals.judge.cost = roundCost((totals.judge.cost ?? 0) + u.cost);
    }
    const u = r.usage;
    if (u === null) continue;
    totals.with_usage++;
    if (known(u.prompt_tokens)) totals.prompt_tokens += u.prompt_tokens;
    if (known(u.completion_tokens)) totals.completion_tokens += u.completion_tokens;
    if (known(u.total_tokens)) totals.total_tokens += u.total_tokens;
    if (known(u.cost)) {
      totals.cost = roundCost((totals.cost ?? 0) + u.cost);
      totals.cost_samples++;
    }
  }
  return totals;
}

const FIELDS = ['completion_tokens', 'total_tokens', 'cost'] as const;
type Field = (typeof FIELDS)[number];

/**
 * Suite-level usage_changed (warn): completion tokens, total tokens and cost summed over the
 * cases that have an answer on both sides, each field over the cases that reported it on
 * both sides, so a case added, removed, errored or without cost never skews a total.
 * Repeated samples of a case count as their mean, since the baseline keeps one answer per
 * case. Null when nothing moved beyond `tolerance` (defaults ±25 %) or nothing compares.
 */
export function suiteUsageDrift(
  results: readonly CaseResult[],
  baseline: Baseline,
  tolerance: UsageTolerance = {},
): Drift | null {
  const samples = new Map<string, CaseResult[]>();
  for (const r of results) {
    if (r.suite !== baseline.suite || (r.status !== 'pass' && r.status !== 'fail') || r.usage === null)
      continue;
    samples.set(r.case, [...(samples.get(r.case) ?? []), r]);
  }
  const sums = { baseline: zero(), current: zero(), counted: zero() };
  const cases = new Set<string>();
  for (const [id, list] of samples) {
    const base = Object.hasOwn(baseline.cases, id) ? baseline.cases[id] : undefined;
    if (base === undefined || base.status === 'error' || base.usage === null) continue;
    for (const field of FIELDS) {
      const from = base.usage[field];
      const values = list.map((r) => r.usage?.[field]).filter(known);
      if (!known(from) || values.length === 0) continue;
      sums.baseline[field] += from;
      sums.current[field] += values.reduce((a, b) => a + b, 0) / values.length;
      sums.counted[field]++;
      cases.add(id);
    }
  }
  if (cases.size === 0) return null;
  const figures = (side: Record<Field, number>): UsageFigures =>
    Object.fromEntries(FIELDS.map((f) => [f, sums.counted[f] > 0 ? side[f] : null]));
  const limits = { ...DEFAULT_TOLERANCE.usage, ...defined(tolerance) };
  const changes = usageChanges(figures(sums.baseline), figures(sums.current), limits);
  if (changes.length === 0) return null;
  const summary = (side: Record<Field, number>) => ({
    cases: cases.size,
    completion_tokens: sums.counted.completion_tokens > 0 ? Math.round(side.completion_tokens) : null,
    total_tokens: sums.counted.total_tokens > 0 ? Math.round(side.total_tokens) : null,
    cost: sums.counted.cost > 0 ? roundCost(side.cost) : null,
  });
  return {
    kind: 'usage_changed',
    severity: 'warn',
    baseline: summary(sums.baseline),
    current: summary(sums.current),
    message: `suite usage changed over ${cases.size} case${cases.size === 1 ? '' : 's'} present in both: ${changes.join(', ')}`,
  };
}

function zero(): Record<Field, number> {
  return { completion_tokens: 0, total_tokens: 0, cost: 0 };
}

function defined(value: UsageTolerance): UsageTolerance {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
