import { withCost } from '../core/cost.js';
import type { JudgeSpec } from '../checks/judge.js';
import type { CheckResult } from '../checks/registry.js';
import type { CallOutcome, ServiceClient } from '../service/types.js';
import type { Prices } from '../core/catalog.js';
import { judgeCallFailed, parseJudgeVerdict, planJudge } from '../checks/judge.js';

export interface RunJudgeOptions {
  /** Fills the judge call's usage.cost where its service reports none. */
  prices?: Prices;
  /** Identifies the call to the simulator (e.g. `suite/case#0/judge0`). */
  caseKey?: string;
  signal?: AbortSignal;
}

/**
 * Asks one judge about one answer through the judge service's client and turns the outcome
 * into a CheckResult carrying the judge's concrete model, usage and verdict. `outcome` is
 * returned too (null when skipped), so the runner can pause on a budget condition or stop on
 * an auth failure of the judge's service like on any other call.
 */
export async function runJudge(
  spec: JudgeSpec,
  content: string,
  baselineContent: string | null,
  client: ServiceClient,
  options: RunJudgeOptions = {},
): Promise<{ check: CheckResult; outcome: CallOutcome | null }> {
  const plan = planJudge(spec, content, baselineContent, client.service.max_tokens_param);
  if (plan.kind === 'skip') return { check: plan.result, outcome: null };
  const outcome = await client.complete({
    ...plan.request,
    ...(options.caseKey !== undefined ? { case_key: options.caseKey } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const completion =
    outcome.completion === null
      ? null
      : {
          ...outcome.completion,
          usage: withCost(outcome.completion.usage, outcome.completion.model, options.prices),
        };
  if (outcome.status === 'error') return { check: judgeCallFailed(spec, outcome.error, completion), outcome };
  return { check: parseJudgeVerdict(completion!), outcome };
}
