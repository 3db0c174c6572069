import type { CheckResult } from './registry.js';
import { CHECKS, type CheckContext, type CheckDefinition, type Expectation } from './registry.js';
import { MAX_MESSAGE_CHARS, shorten } from '../util/shorten.js';

/** Message of every check when there is no completion to look at; the runner decides the status. */
export const NOT_EVALUATED = 'not evaluated: the call failed';

/**
 * A judge expectation reaching runChecks: judges call a service, so the runner splits them
 * off (splitExpectations) and runs them with runJudge. Failing here makes a forgotten split loud.
 */
export const JUDGE_NOT_RUN = 'not evaluated: judge checks are run by the runner (runJudge), not by runChecks';

/** Whether an expectation reads the case's baseline while the run goes (see CheckDefinition.usesBaseline). */
export function usesBaseline(e: Expectation): boolean {
  return (CHECKS[e.type] as CheckDefinition<unknown>).usesBaseline?.(e.value) ?? false;
}

/**
 * Evaluates a case's expectations against one sample (its completion, request and baseline),
 * in `expect:` order; null means the call failed. Pure: pass only local expectations (see
 * splitExpectations).
 */
export function runChecks(expect: readonly Expectation[], context: CheckContext | null): CheckResult[] {
  if (context === null) return expect.map((e) => ({ type: e.type, pass: false, message: NOT_EVALUATED }));
  return expect.map((e) => runCheck(e, context));
}

function runCheck(e: Expectation, context: CheckContext): CheckResult {
  const definition = CHECKS[e.type] as CheckDefinition<unknown>;
  if (!definition.run) return { type: e.type, pass: false, message: JUDGE_NOT_RUN };
  try {
    const result = definition.run(e.value, context);
    // Every check's message is bounded here, once: an answer of 5,000 tool calls made one of 437 KB.
    return result.message.length > MAX_MESSAGE_CHARS
      ? { ...result, message: shorten(result.message, MAX_MESSAGE_CHARS) }
      : result;
  } catch (error) {
    // A RangeError is a resource limit (stack depth, string length) reached on this answer:
    // the check could not evaluate it, which fails this check, not the whole run. Anything
    // else is a bug and stays loud.
    if (!(error instanceof RangeError)) throw error;
    return {
      type: e.type,
      pass: false,
      message: `could not be evaluated on this answer (${error.message}): the answer is too large or too deeply nested for this check; check a part of it (json_schema on a smaller schema, contains)`,
    };
  }
}
