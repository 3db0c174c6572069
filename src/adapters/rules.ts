import type { ErrorKind } from '../core/answer.js';
import type { ErrorFields } from './error-fields.js';

/** What a classification rule may look at: the status plus the error object's fields. */
export interface Facts extends ErrorFields {
  status: number;
}

/** One row of a classification table; the first row whose `when` holds wins. */
export interface Rule {
  kind: ErrorKind;
  /** Replaces the CaseError code (e.g. 'moderation'), when the row says more than the body. */
  code?: string;
  when: (facts: Facts) => boolean;
}

/** The verdict of a table: a kind, and a code when the row set one. */
export interface Verdict {
  kind: ErrorKind;
  code?: string;
}

/** Walks a table top to bottom; every table ends in a catch-all, so this always answers. */
export function applyRules(rules: readonly Rule[], facts: Facts): Verdict {
  for (const rule of rules) {
    if (rule.when(facts))
      return rule.code === undefined ? { kind: rule.kind } : { kind: rule.kind, code: rule.code };
  }
  return { kind: facts.status >= 500 ? 'server_error' : 'bad_response' };
}

/** Rows matching an exact `code` (availability code or error.code). */
export function byCode(table: Record<string, ErrorKind>): Rule[] {
  return Object.entries(table).map(([code, kind]) => ({
    kind,
    when: (f) => f.code === code || f.rawCode === code || f.availabilityCode === code,
  }));
}

/** Rows matching the normalised error `type`. */
export function byType(table: Record<string, ErrorKind>): Rule[] {
  return Object.entries(table).map(([type, kind]) => ({ kind, when: (f) => f.type === type }));
}

/** Rows matching the HTTP status; `5xx` rows go last in a table as its catch-all. */
export function byStatus(table: Record<number, ErrorKind>): Rule[] {
  return Object.entries(table).map(([status, kind]) => ({ kind, when: (f) => f.status === Number(status) }));
}

export const is4xx = (f: Facts): boolean => f.status >= 400 && f.status < 500;

/** A message that blames the model id itself (not e.g. "exceeded model token limit"). */
export const MODEL_ID_MESSAGE =
  /not a valid model|(?:unknown|invalid|unsupported) model\b|model\b[^.]{0,80}?\b(?:does not exist|not found|is not supported|is not available)|not found the model/i;

/** A message about a spending budget running out (workspace, project, daily, monthly). */
export const BUDGET_MESSAGE =
  /budget[^.]{0,60}?\b(?:exceeded|reached|exhausted)|\b(?:daily|monthly)\b[^.]{0,40}?\b(?:budget|spend(?:ing)? limit)\b/i;

/** A message about the account balance being used up. */
export const BALANCE_MESSAGE =
  /insufficient (?:account )?balance|balance (?:is )?(?:insufficient|exhausted|depleted)|credit balance/i;
