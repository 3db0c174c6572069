import type { CheckResult, Completion, Expectation } from '../types.js';
import { checkJsonSchema } from './json-schema.js';
import { checkRegex } from './regex.js';
import {
  checkContains,
  checkEquals,
  checkFinishReason,
  checkIcontains,
  checkMaxCompletionTokens,
  checkNonEmpty,
  checkNotContains,
} from './text.js';

/** Message of every check when there is no completion to look at; the runner decides the status. */
export const NOT_EVALUATED = 'not evaluated: the call failed';

/**
 * A judge expectation reaching runChecks: judges call a service, so the runner splits them
 * off (splitExpectations) and runs them with runJudge. Failing here makes a forgotten split loud.
 */
export const JUDGE_NOT_RUN = 'not evaluated: judge checks are run by the runner (runJudge), not by runChecks';

/**
 * Evaluates a case's expectations against one completion, in `expect:` order; null means the
 * call failed. Pure: pass only local expectations (see splitExpectations).
 */
export function runChecks(expect: Expectation[], completion: Completion | null): CheckResult[] {
  if (completion === null) return expect.map((e) => ({ type: e.type, pass: false, message: NOT_EVALUATED }));
  return expect.map((e) => runCheck(e, completion));
}

function runCheck(e: Expectation, c: Completion): CheckResult {
  switch (e.type) {
    case 'contains':
      return checkContains(e.value, c);
    case 'not_contains':
      return checkNotContains(e.value, c);
    case 'icontains':
      return checkIcontains(e.value, c);
    case 'equals':
      return checkEquals(e.value, c);
    case 'regex':
      return checkRegex(e.value, c);
    case 'finish_reason':
      return checkFinishReason(e.value, c);
    case 'json_schema':
      return checkJsonSchema(e.value, c);
    case 'max_completion_tokens':
      return checkMaxCompletionTokens(e.value, c);
    case 'non_empty':
      return checkNonEmpty(e.value, c);
    case 'judge':
      return { type: 'judge', pass: false, message: JUDGE_NOT_RUN };
  }
}
