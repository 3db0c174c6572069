import { costOf } from '../core/cost.js';
import { formatUsd } from '../util/numbers.js';
import type { SampleResult, StepLine } from '../stored/journal/records.js';
import type { Prices } from '../core/catalog.js';
import type { StopReason } from '../core/stops.js';
import type { CaseError, Usage } from '../core/answer.js';

/** The most a run may spend, in USD, and where the user set it (messages name it so). */
export interface CostCap {
  usd: number;
  /** `--max-cost` on the command line, or `max_cost` in the config. */
  source: '--max-cost' | 'max_cost';
}

/**
 * The code of the stop reason a reached cap leaves: a budget condition of the user's own,
 * kind `budget_exceeded` like a service's budget, so it pauses through the same path
 * (exit 3, the rest `not_run`, `--resume` sends it) — but with no HTTP status.
 */
const COST_CAP_CODE = 'max_cost';

/** `--max-cost $0.01`: the cap as the user wrote it, named by where it was set. */
export function capLabel(cap: CostCap): string {
  return `${cap.source} $${cap.usd}`;
}

/** The reason a run paused at its cap: `spent $0.0123 of --max-cost $0.01`. */
function costCapError(spent: number, cap: CostCap): CaseError {
  return {
    kind: 'budget_exceeded',
    http_status: null,
    type: null,
    code: COST_CAP_CODE,
    message: `spent ${formatUsd(spent)} of ${capLabel(cap)}`,
    model: null,
  };
}

/** Whether a stop reason is the user's cost cap (not a service's budget). */
export function isCostCapStop(error: CaseError | null | undefined): boolean {
  return error?.kind === 'budget_exceeded' && error.http_status === null && error.code === COST_CAP_CODE;
}

/** Costs are summed in floating point; rounding keeps what is shown stable. */
const round = (value: number): number => Math.round(value * 1e10) / 1e10;

/**
 * USD of one call: its `usage.cost` when the service reported one, else its tokens priced
 * from `prices` (the config's, over the router's list); 0 when neither is known.
 */
function callCost(usage: Usage | null | undefined, model: string | null, prices: Prices): number {
  return costOf(usage ?? null, model, prices) ?? 0;
}

/**
 * What one journaled sample cost, its judge calls included: how a resumed run learns what
 * the run spent before (each call is counted the same way the live meter counted it).
 */
export function sampleSpent(result: SampleResult, prices: Prices): number {
  let spent = callCost(result.usage, result.model, prices);
  for (const check of result.checks) {
    if (check.judge && check.judge.verdict !== 'skipped')
      spent += callCost(check.judge.usage, check.judge.model, prices);
  }
  return spent;
}

/** What one journaled step of a conversation cost: how a resume counts the steps of one it stopped part-way. */
export function stepSpent(step: Pick<StepLine, 'usage' | 'model'>, prices: Prices): number {
  return callCost(step.usage, step.model, prices);
}

export interface CostMeter {
  /** Counts one call's cost the moment its answer arrives (a sample's or a judge's). */
  add(usage: Usage | null | undefined, model: string | null): void;
  /** The stop reason once the spent cost has reached the cap, else null. */
  reached(): StopReason | null;
  readonly spent: number;
}

/**
 * Adds up what a run spends as answers arrive, starting from what it spent before (a
 * resumed run's journal). Reaching the cap is a pause: nothing new is sent, what is in
 * flight finishes and counts.
 */
export function createCostMeter(cap: CostCap, spentBefore: number, prices: Prices): CostMeter {
  let spent = round(spentBefore);
  return {
    add(usage, model) {
      spent = round(spent + callCost(usage, model, prices));
    },
    reached() {
      return spent >= cap.usd ? { kind: 'paused', error: costCapError(spent, cap) } : null;
    },
    get spent() {
      return spent;
    },
  };
}
