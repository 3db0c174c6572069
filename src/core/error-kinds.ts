import type { CaseError, ErrorKind } from './answer.js';

/**
 * Errors that mean no model answered the request: the service refused it (key, budget, a
 * model it does not have), could not route, reach or finish it (no provider, rate limits,
 * a time-out, the network, its own fault). The others are a model's answer gone wrong (an
 * error in the body, no choices or content, a refusal, a malformed body). A candidate
 * whose every case got only the first kind could not serve them (compare/verdict.ts).
 */
const UNANSWERED_KINDS: ReadonlySet<ErrorKind> = new Set([
  'preflight',
  'auth',
  'permission',
  'insufficient_credit',
  'budget_exceeded',
  'depleted',
  'routing',
  'rate_limited',
  'invalid_model',
  'timeout',
  'network',
  'server_error',
  'endpoint_not_found',
]);

export function isUnanswered(kind: ErrorKind): boolean {
  return UNANSWERED_KINDS.has(kind);
}

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
 * A configuration every other case would fail on the same way, so the run stops (exit 2)
 * at its first answer instead of sending them all: a request that reached no
 * chat-completion endpoint (a wrong base_url).
 */
export function isConfigStop(error: CaseError): boolean {
  return error.kind === 'endpoint_not_found';
}

/**
 * A model the service does not have (retired from its catalog, or mistyped): that model is
 * sent nothing more, and the run goes on with every other model (run/model-stops.ts); it
 * exits 2 at the end. The answer itself is the case's error, kept like any other.
 */
export function isModelStop(error: CaseError): boolean {
  return error.kind === 'invalid_model';
}

/** An error that stops the run for reasons outside the case: its sample is sent again on resume. */
export function isRunStop(error: CaseError): boolean {
  return isAccessStop(error) || isConfigStop(error);
}

/** How a run-stopping error stops the run: `access` (exit 4) or `config` (exit 2). */
export function stopKindOf(error: CaseError): 'access' | 'config' {
  return isConfigStop(error) ? 'config' : 'access';
}

/**
 * A tool loop that ran past its bounds (a call no rule answers, too many steps): the model
 * answered every step, so what served it and the loop it took are compared with the
 * baseline's, as for an answer.
 */
const LOOP_KINDS: ReadonlySet<ErrorKind> = new Set(['tool_result_missing', 'max_steps_reached']);

export function isLoopError(kind: ErrorKind | null | undefined): boolean {
  return kind != null && LOOP_KINDS.has(kind);
}
