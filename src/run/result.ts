import { runChecks } from '../checks/run.js';
import { withCost } from '../baseline/cost.js';
import { splitExpectations } from '../checks/judge.js';
import type { CallOutcome, CaseError, CaseResult, CheckResult, ErrorKind, Prices } from '../types.js';
import type { PlannedCase } from './plan.js';

/**
 * The one empty list every result without drift or without earlier failed attempts shares
 * (most of them): 100,000 separate empty arrays took 3 MB per field. Frozen, so an
 * accidental push throws instead of adding to every result at once.
 */
export const NONE: never[] = Object.freeze([]) as unknown as never[];

/** Budget conditions pause the run (exit 3); they never become an answer or a failure. */
const BUDGET_KINDS: ReadonlySet<ErrorKind> = new Set(['insufficient_credit', 'budget_exceeded', 'depleted']);

export function isBudgetCondition(error: CaseError): boolean {
  return BUDGET_KINDS.has(error.kind);
}

/**
 * Auth and permission failures stop the run (exit 4) rather than burn every case — except
 * a moderation block, which is about one prompt, not about the key.
 */
export function isAccessStop(error: CaseError): boolean {
  return error.kind === 'auth' || (error.kind === 'permission' && error.code !== 'moderation');
}

/**
 * Turns one call's outcome into the sample's result, local checks evaluated (judges run
 * later, in the runner) and cost filled from the prices table where the service gave none. Pure.
 */
export function resultFromOutcome(
  planned: PlannedCase,
  outcome: CallOutcome,
  startedAt: string,
  prices?: Prices,
): CaseResult {
  const completion = outcome.completion;
  const failed = outcome.status === 'error';
  // Local checks only (judges run later, in the runner); on an error every expectation,
  // judges included, shows as not evaluated.
  const checks = failed
    ? runChecks(planned.case.expect, null)
    : runChecks(splitExpectations(planned.case.expect).local, completion);
  const result = newResult(planned, {
    model: completion?.model ?? (failed ? outcome.error.model : null) ?? null,
    response_id: completion?.id ?? null,
    finish_reason: completion?.finish_reason ?? null,
    usage: completion ? withCost(completion.usage, completion.model, prices) : null,
    latency_ms: Math.round(outcome.latency_ms),
    wait_ms: Math.round(outcome.wait_ms),
    attempts: outcome.attempts,
    status: failed ? 'error' : checks.every((c) => c.pass) ? 'pass' : 'fail',
    error: failed ? outcome.error : null,
    attempt_errors: outcome.attempt_errors,
    checks,
    content: completion?.content ?? null,
    started_at: startedAt,
  });
  if (outcome.cache_status) result.cache_status = outcome.cache_status;
  return result;
}

/** A planned sample that was never sent (budget pause, auth stop, interrupt). */
export function notRunResult(planned: PlannedCase, reason: CaseError | null): CaseResult {
  return newResult(planned, {
    model: null,
    response_id: null,
    finish_reason: null,
    usage: null,
    latency_ms: null,
    wait_ms: 0,
    attempts: 0,
    status: 'not_run',
    error: reason,
    attempt_errors: [],
    checks: [],
    content: null,
    started_at: null,
  });
}

type Outcome = Pick<
  CaseResult,
  | 'model'
  | 'response_id'
  | 'finish_reason'
  | 'usage'
  | 'latency_ms'
  | 'wait_ms'
  | 'attempts'
  | 'status'
  | 'error'
  | 'attempt_errors'
  | 'checks'
  | 'content'
  | 'started_at'
>;

/**
 * One sample's result, written out as a single literal: every result has the same
 * shape, so V8 keeps them as fast objects. (Spreading a wide object and adding fields,
 * `{ ...a, b, c }`, measured at over 30 µs a result on Node 20 — most of the
 * harness's own time per case.)
 */
function newResult(planned: PlannedCase, o: Outcome): CaseResult {
  const result: CaseResult = {
    key: planned.key,
    suite: planned.suite.suite,
    case: planned.case.id,
    repeat: planned.repeat,
    service: planned.service,
    requested_model: planned.model,
    messages: planned.case.messages,
    model: o.model,
    response_id: o.response_id,
    finish_reason: o.finish_reason,
    usage: o.usage,
    latency_ms: o.latency_ms,
    wait_ms: o.wait_ms,
    attempts: o.attempts,
    attempt_errors: o.attempt_errors.length === 0 ? NONE : o.attempt_errors,
    drift: NONE,
    content: o.content,
    started_at: o.started_at,
    redacted: false,
    status: o.status,
    error: o.error,
    checks: o.checks,
  };
  if (planned.adaptive) result.sampling = 'auto';
  return result;
}

/** Adds the judges' verdicts to a finished sample and recomputes its status. */
export function withJudgeChecks(result: CaseResult, judged: CheckResult[]): CaseResult {
  if (judged.length === 0) return result;
  const checks = [...result.checks, ...judged];
  return { ...result, checks, status: checks.every((c) => c.pass) ? 'pass' : 'fail' };
}
