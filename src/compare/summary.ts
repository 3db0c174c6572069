import { nearestRank } from '../stats/nearest-rank.js';
import { wilsonInterval } from '../stats/wilson.js';
import type { CaseEntry } from '../types.js';
import type { ComparedRun } from './compare.js';
import {
  type CandidateCell,
  type CandidateSummary,
  type Change,
  CHANGES,
  type ServedCount,
  type Unserved,
} from './types.js';

/** A candidate's totals before its paired verdict (compareRuns decides it over every candidate at once). */
export type CandidateTotals = Omit<CandidateSummary, 'verdict'>;

/** One candidate's totals over its run's cases and its cells of the comparison. Pure. */
export function summarizeCandidate(
  { label, run }: ComparedRun,
  cells: readonly CandidateCell[],
): CandidateTotals {
  const { head, cases } = run;
  const count = (status: CaseEntry['status']) => cases.filter((c) => c.status === status).length;
  const [passed, failed, errored, notRun] = (['pass', 'fail', 'error', 'not_run'] as const).map(count) as [
    number,
    number,
    number,
    number,
  ];
  const changes = Object.fromEntries(CHANGES.map((c) => [c, 0])) as Record<Change, number>;
  for (const cell of cells) changes[cell.change]++;
  const answered = passed + failed + errored;
  const interval = answered === 0 ? null : wilsonInterval(passed, answered);
  const costs = cases.flatMap((c) => (c.stats.cost === null ? [] : [c.stats.cost]));
  const cost = costs.length ? costs.reduce((a, b) => a + b, 0) : null;
  return {
    label,
    run_id: head.run.id,
    dir: run.dir,
    model: head.run.candidate_model,
    provider: head.run.candidate_provider ?? null,
    exit_code: head.run.exit_code,
    run_status: head.run.status,
    cases: cases.length,
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
    changes,
    tools: toolRates(cases),
    error_kinds: errorKinds(cases),
    tokens: {
      prompt: sum(cases, (c) => c.stats.prompt_tokens),
      completion: sum(cases, (c) => c.stats.completion_tokens),
      total: sum(cases, (c) => c.stats.total_tokens),
    },
    cost: {
      total: cost === null ? null : roundUsd(cost),
      cases_with_cost: costs.length,
      per_1000_cases: cost === null ? null : roundUsd((cost / costs.length) * 1000),
    },
    latency_ms: latency(cases),
    providers: servedBy(cases, (c) => c.providers),
    models: servedBy(cases, (c) => c.models),
    unserved: head.run.candidate_provider ? unserved(cases) : [],
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
const sum = (cases: readonly CaseEntry[], f: (c: CaseEntry) => number) => cases.reduce((n, c) => n + f(c), 0);

/** Trigger and valid-call rates over the cases that asked with tools (their samples pooled). */
function toolRates(cases: readonly CaseEntry[]): CandidateSummary['tools'] {
  const used = cases.flatMap((c) => (c.tool_use ? [c.tool_use] : []));
  if (used.length === 0) return null;
  const answered = used.reduce((n, t) => n + t.answered, 0);
  const triggered = used.reduce((n, t) => n + t.triggered, 0);
  const valid = used.reduce((n, t) => n + t.valid, 0);
  return {
    cases: used.length,
    answered,
    triggered,
    valid,
    trigger_rate: answered === 0 ? 0 : round(triggered / answered),
    valid_rate: triggered === 0 ? null : round(valid / triggered),
  };
}

function errorKinds(cases: readonly CaseEntry[]): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const c of cases)
    for (const [kind, n] of Object.entries(c.error_kinds)) kinds[kind] = (kinds[kind] ?? 0) + (n ?? 0);
  return kinds;
}

/**
 * p50 and p95 over the answered samples of every case: each case's latency sketch holds its
 * values (or, past the sketch's cap, evenly spaced quantiles of them); a report written
 * before the sketch existed gives each case's median.
 */
function latency(cases: readonly CaseEntry[]): CandidateSummary['latency_ms'] {
  const values: number[] = [];
  for (const c of cases) {
    const sketch = c.stats.answered.latency_ms;
    if (sketch) values.push(...sketch.sample);
    else if (sketch === undefined && c.stats.latency_ms) values.push(c.stats.latency_ms.p50);
  }
  const p50 = nearestRank(values, 0.5);
  const p95 = nearestRank(values, 0.95);
  return p50 === null || p95 === null ? null : { p50, p95, samples: values.length };
}

/** Each name and the cases it served, most first. */
function servedBy(cases: readonly CaseEntry[], names: (c: CaseEntry) => readonly string[]): ServedCount[] {
  const counts = new Map<string, number>();
  for (const c of cases) for (const name of new Set(names(c))) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts]
    .map(([name, n]) => ({ name, cases: n }))
    .sort((a, b) => b.cases - a.cases || a.name.localeCompare(b.name));
}

/**
 * The suites a provider could not serve: their cases got the router's "no provider meets
 * your routing requirements" (`routing`) instead of an answer. One per suite, with the
 * router's words.
 */
function unserved(cases: readonly CaseEntry[]): Unserved[] {
  const bySuite = new Map<string, Unserved>();
  for (const c of cases) {
    const entry = bySuite.get(c.suite) ?? {
      suite: c.suite,
      model: c.requested_model,
      cases: 0,
      total: 0,
      message: '',
    };
    entry.total++;
    if (c.error?.kind === 'routing') {
      entry.cases++;
      entry.message ||= c.error.message;
    }
    bySuite.set(c.suite, entry);
  }
  return [...bySuite.values()].filter((e) => e.cases > 0);
}
