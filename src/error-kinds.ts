import type { CaseError, ErrorKind } from './types.js';

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
