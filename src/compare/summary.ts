import { nearestRank } from '../stats/nearest-rank.js';
import { wilsonInterval } from '../stats/wilson.js';
import type { ComparedRun } from './compare.js';
import type { Change } from '../core/words.js';
import type { CandidateSummary } from './types.js';

/** A candidate's totals before its paired verdict (compareRuns decides it over every candidate at once). */
export type CandidateTotals = Omit<CandidateSummary, 'verdict'>;

/** One candidate's totals over its run's cases (added up as it was read) and its cells' changes. Pure. */
export function summarizeCandidate(
  { label, side }: ComparedRun,
  changes: Record<Change, number>,
): CandidateTotals {
  const { totals } = side;
  const head = side.head;
  if (!head) throw new Error(`summarizeCandidate: run ${label} was not read to its end`);
  const { pass: passed, fail: failed, error: errored, not_run: notRun } = totals.statuses;
  const answered = passed + failed + errored;
  const interval = answered === 0 ? null : wilsonInterval(passed, answered);
  const cost = totals.costed ? totals.costSum : null;
  const { tools } = totals;
  const p50 = nearestRank(totals.latencies, 0.5);
  const p95 = nearestRank(totals.latencies, 0.95);
  return {
    label,
    run_id: head.run.id,
    dir: side.dir,
    model: head.run.candidate_model,
    provider: head.run.candidate_provider ?? null,
    exit_code: head.run.exit_code,
    run_status: head.run.status,
    cases: totals.cases,
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
    tools:
      tools.cases === 0
        ? null
        : {
            ...tools,
            trigger_rate: tools.answered === 0 ? 0 : round(tools.triggered / tools.answered),
            valid_rate: tools.triggered === 0 ? null : round(tools.valid / tools.triggered),
          },
    error_kinds: { ...totals.errorKinds },
    tokens: { ...totals.tokens },
    cost: {
      total: cost === null ? null : roundUsd(cost),
      cases_with_cost: totals.costed,
      per_1000_cases: cost === null ? null : roundUsd((cost / totals.costed) * 1000),
    },
    latency_ms: p50 === null || p95 === null ? null : { p50, p95, samples: totals.latencies.length },
    providers: totals.served('providers'),
    models: totals.served('models'),
    unserved: head.run.candidate_provider ? totals.unserved() : [],
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
