import pLimit from 'p-limit';
import type { CaseError, CaseResult, ServiceClient } from '../types.js';
import type { Journal } from './journal.js';
import type { PlannedCase } from './plan.js';
import { isAccessStop, isBudgetCondition, notRunResult, resultFromOutcome } from './result.js';

/** Why a run ended before its plan did. */
export interface StopReason {
  kind: 'paused' | 'access' | 'interrupted';
  error: CaseError | null;
}

export interface ExecuteOptions {
  plan: readonly PlannedCase[];
  /** One client per service name used by the plan. */
  clients: ReadonlyMap<string, ServiceClient>;
  /** `--concurrency`: overrides every service's own `concurrency`. */
  concurrency?: number;
  journal: Journal;
  /** Applied to every result before it is journaled or returned. */
  redactResult: (result: CaseResult) => CaseResult;
  /** Aborting stops scheduling; in-flight requests finish. */
  signal?: AbortSignal;
  now?: () => Date;
  /** Fires after each finished (journaled) sample — progress display. */
  onResult?: (result: CaseResult) => void;
}

export interface ExecuteOutcome {
  /** One result per planned sample, in plan order (not_run included). */
  results: CaseResult[];
  stop: StopReason | null;
}

/**
 * Sends every planned sample, at most `concurrency` at a time per service, journaling each
 * result the moment it finishes. A budget condition pauses (no new sends; in-flight ones
 * finish and are kept); an auth/permission failure stops the same way.
 */
export async function executePlan(options: ExecuteOptions): Promise<ExecuteOutcome> {
  const now = options.now ?? (() => new Date());
  const limits = new Map<string, ReturnType<typeof pLimit>>();
  for (const [name, client] of options.clients) {
    limits.set(name, pLimit(Math.max(1, options.concurrency ?? client.service.concurrency)));
  }
  let stop: StopReason | null = null;
  const results: CaseResult[] = new Array(options.plan.length);

  const runOne = async (planned: PlannedCase, index: number): Promise<void> => {
    if (!stop && options.signal?.aborted) stop = { kind: 'interrupted', error: null };
    if (stop) {
      results[index] = notRunResult(planned, stop.error);
      return;
    }
    const client = options.clients.get(planned.service);
    if (!client) throw new Error(`no client for service '${planned.service}'`);
    const startedAt = now().toISOString();
    const outcome = await client.complete({
      model: planned.model,
      messages: planned.case.messages,
      params: planned.suite.params,
      case_key: planned.key,
      ...(planned.case.sim ? { sim: planned.case.sim } : {}),
    });
    if (outcome.status === 'error' && isBudgetCondition(outcome.error)) {
      // Not an answer: the sample goes back to not_run and `--resume` sends it again.
      stop ??= { kind: 'paused', error: outcome.error };
      results[index] = options.redactResult(notRunResult(planned, outcome.error));
      return;
    }
    const result = options.redactResult(resultFromOutcome(planned, outcome, startedAt));
    if (result.error && isAccessStop(result.error)) stop ??= { kind: 'access', error: result.error };
    options.journal.append(result);
    results[index] = result;
    options.onResult?.(result);
  };

  await Promise.all(
    options.plan.map((planned, index) => limits.get(planned.service)!(() => runOne(planned, index))),
  );
  return { results, stop };
}
