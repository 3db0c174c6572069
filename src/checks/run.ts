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

/** Evaluates a case's expectations against one completion, in `expect:` order; null means the call failed. */
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
  }
}
