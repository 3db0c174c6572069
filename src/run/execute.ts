import type { CaseError, CaseResult, ServiceClient } from '../types.js';
import type { Journal } from './journal.js';
import type { PlannedCase } from './plan.js';
import { isAccessStop, isBudgetCondition, notRunResult, resultFromOutcome } from './result.js';
import { createThrottle, type Throttle } from './throttle.js';

/** Why a run ended before its plan did. */
export type StopReason =
  | { kind: 'paused' | 'access'; error: CaseError }
  | { kind: 'interrupted'; error: null; signal: 'SIGINT' | 'SIGTERM' };

export interface ExecuteOptions {
  plan: readonly PlannedCase[];
  /** One client per service name used by the plan. */
  clients: ReadonlyMap<string, ServiceClient>;
  /** `--concurrency`: overrides every service's own `concurrency`. */
  concurrency?: number;
  journal: Journal;
  /** Applied to every result before it is journaled or returned. */
  redactResult: (result: CaseResult) => CaseResult;
  /** Stop scheduling (SIGINT/SIGTERM): nothing new is sent; in-flight requests go on. */
  interrupt?: AbortSignal;
  /** Abort in-flight requests too (after a grace period, or a second signal); they become not_run. */
  abortInFlight?: AbortSignal;
  now?: () => Date;
  /** Fires after each finished (journaled) sample — progress display. */
  onResult?: (result: CaseResult) => void;
  /** Fires when a service's 429s lower (or clean answers raise) its concurrency. */
  onThrottle?: (service: string, concurrency: number) => void;
}

export interface ExecuteOutcome {
  /** One result per planned sample, in plan order (not_run included). */
  results: CaseResult[];
  stop: StopReason | null;
}

/**
 * Sends every planned sample, at most `concurrency` at a time per service (lowered while
 * the service answers 429), journaling each result the moment it finishes. A budget
 * condition pauses (no new sends; in-flight ones finish and are kept); an auth/permission
 * failure stops the same way; an interrupt stops scheduling and, once `abortInFlight`
 * fires, abandons what is still in flight.
 */
export async function executePlan(options: ExecuteOptions): Promise<ExecuteOutcome> {
  const now = options.now ?? (() => new Date());
  const throttles = new Map<string, Throttle>();
  for (const [name, client] of options.clients) {
    throttles.set(name, createThrottle(Math.max(1, options.concurrency ?? client.service.concurrency)));
  }
  let stop: StopReason | null = null;
  const interrupted = (): StopReason | null => {
    const reason = options.interrupt?.reason;
    if (!options.interrupt?.aborted) return null;
    return { kind: 'interrupted', error: null, signal: reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT' };
  };
  const results: CaseResult[] = new Array(options.plan.length);

  const runOne = async (planned: PlannedCase, index: number): Promise<void> => {
    stop ??= interrupted();
    if (stop) {
      results[index] = notRunResult(planned, stop.error);
      return;
    }
    const client = options.clients.get(planned.service)!;
    const startedAt = now().toISOString();
    let outcome;
    try {
      outcome = await client.complete({
        model: planned.model,
        messages: planned.case.messages,
        params: planned.suite.params,
        case_key: planned.key,
        ...(planned.case.sim ? { sim: planned.case.sim } : {}),
        ...(options.abortInFlight ? { signal: options.abortInFlight } : {}),
      });
    } catch (error) {
      // Only our own abort is thrown: the answer never came, so the sample is simply not run.
      if (!options.abortInFlight?.aborted) throw error;
      results[index] = notRunResult(planned, null);
      return;
    }
    const changed = throttles.get(planned.service)!.observe(outcome);
    if (changed !== null) options.onThrottle?.(planned.service, changed);
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
    options.plan.map((planned, index) => throttles.get(planned.service)!.limit(() => runOne(planned, index))),
  );
  // A signal that arrived once everything was already in flight still marks the run.
  stop ??= interrupted();
  return { results, stop };
}
