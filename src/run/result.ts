import { runChecks } from '../checks/run.js';
import { withCost } from '../baseline/cost.js';
import { splitExpectations } from '../checks/judge.js';
import type { CallOutcome, CaseError, CaseResult, CheckResult, ErrorKind, Prices } from '../types.js';
import type { PlannedCase } from './plan.js';

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
  const { local } = splitExpectations(planned.case.expect);
  const base = {
    ...sampleIdentity(planned),
    model: completion?.model ?? (outcome.status === 'error' ? outcome.error.model : null) ?? null,
    response_id: completion?.id ?? null,
    finish_reason: completion?.finish_reason ?? null,
    usage: completion ? withCost(completion.usage, completion.model, prices) : null,
    latency_ms: Math.round(outcome.latency_ms),
    wait_ms: Math.round(outcome.wait_ms),
    attempts: outcome.attempts,
    attempt_errors: outcome.attempt_errors,
    drift: [],
    content: completion?.content ?? null,
    started_at: startedAt,
    redacted: false,
    ...(outcome.cache_status ? { cache_status: outcome.cache_status } : {}),
  };
  if (outcome.status === 'error') {
    return {
      ...base,
      status: 'error',
      error: outcome.error,
      // Every expectation, judges included, shows as not evaluated.
      checks: runChecks(planned.case.expect, null),
    };
  }
  const checks = runChecks(local, completion);
  return { ...base, status: checks.every((c) => c.pass) ? 'pass' : 'fail', error: null, checks };
}

/** A planned sample that was never sent (budget pause, auth stop, interrupt). */
export function notRunResult(planned: PlannedCase, reason: CaseError | null): CaseResult {
  return {
    ...sampleIdentity(planned),
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
    drift: [],
    content: null,
    started_at: null,
    redacted: false,
  };
}

/** Adds the judges' verdicts to a finished sample and recomputes its status. */
export function withJudgeChecks(result: CaseResult, judged: CheckResult[]): CaseResult {
  if (judged.length === 0) return result;
  const checks = [...result.checks, ...judged];
  return { ...result, checks, status: checks.every((c) => c.pass) ? 'pass' : 'fail' };
}

/** What every result of a sample says about which sample it is. */
function sampleIdentity(planned: PlannedCase) {
  return {
    key: planned.key,
    suite: planned.suite.suite,
    case: planned.case.id,
    repeat: planned.repeat,
    service: planned.service,
    requested_model: planned.model,
    messages: planned.case.messages,
    ...(planned.adaptive ? { sampling: 'auto' as const } : {}),
  };
}
