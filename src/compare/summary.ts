import { wilsonInterval } from '../stats/wilson.js';
import type { ComparedRun } from './compare.js';
import type { Change } from '../core/words.js';
import type { CandidateSummary } from './types.js';

/** A candidate's totals before its paired verdict (compareRuns decides it over every candidate at once). */
export type CandidateTotals = Omit<CandidateSummary, 'verdict'>;

/**
 * One candidate's summary: its run's totals as the fold added them up (fold/totals.ts),
 * rounded as compare.json keeps them, and its cells' changes. Pure.
 */
export function summarizeCandidate(
  { label, side }: ComparedRun,
  changes: Record<Change, number>,
): CandidateTotals {
  const { head, totals } = side;
  if (!head || !totals) throw new Error(`summarizeCandidate: run ${label} was not read to its end`);
  const { cases, passed, failed, errored, not_run: notRun } = totals.counts;
  const answered = passed + failed + errored;
  const interval = answered === 0 ? null : wilsonInterval(passed, answered);
  const { cost, costed, tools, latency_ms: latency, ttft_ms: ttft } = totals;
  return {
    label,
    run_id: head.run.id,
    dir: side.dir,
    model: head.run.candidate_model,
    provider: head.run.candidate_provider ?? null,
    exit_code: head.run.exit_code,
    run_status: head.run.status,
    cases,
    passed,
    failed,
    errored,
    not_run: notRun,
    skipped: changes.skipped,
    pass_rate: interval && {
      passed,
      total: answered,
      rate: round(interval.rate),
      low: round(interval.low),
      high: round(interval.high),
    },
    changes: { ...changes },
    tools: tools && {
      cases: tools.cases,
      answered: tools.answered,
      triggered: tools.triggered,
      valid: tools.valid,
      trigger_rate: round(tools.trigger_rate),
      valid_rate: tools.valid_rate === null ? null : round(tools.valid_rate),
    },
    error_kinds: { ...totals.error_kinds },
    tokens: { ...totals.tokens },
    cost: {
      total: cost === null ? null : roundUsd(cost),
      cases_with_cost: costed,
      per_1000_cases: cost === null ? null : roundUsd((cost / costed) * 1000),
    },
    latency_ms: latency && { p50: latency.p50, p95: latency.p95, samples: latency.samples },
    ttft_ms: ttft && { p50: ttft.p50, p95: ttft.p95, samples: ttft.samples },
    providers: totals.providers.map((p) => ({ ...p })),
    models: totals.models.map((m) => ({ ...m })),
    unserved: head.run.candidate_provider ? totals.unrouted.map((u) => ({ ...u })) : [],
    pareto: null,
  };
}

/**
 * Marks the candidates on the cost-versus-pass-rate frontier: none other is at least as
 * cheap per 1,000 cases and at least as good, and strictly better in one. A candidate
 * without a known cost or pass rate is not placed (null).
 */
export function markFrontier(candidates: CandidateTotals[]): void {
  const placed = candidates.filter((c) => c.cost.per_1000_cases !== null && c.pass_rate !== null);
  const cost = (c: CandidateTotals) => c.cost.per_1000_cases!;
  const rate = (c: CandidateTotals) => c.pass_rate!.rate;
  for (const c of placed)
    c.pareto = !placed.some(
      (o) => o !== c && cost(o) <= cost(c) && rate(o) >= rate(c) && (cost(o) < cost(c) || rate(o) > rate(c)),
    );
}

const round = (x: number) => Math.round(x * 10000) / 10000;
/** Costs are kept to a millionth of a dollar: enough for a cheap model's single call. */
const roundUsd = (x: number) => Math.round(x * 1e6) / 1e6;
