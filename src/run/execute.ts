import type { BaselineCase } from '../stored/baseline/types.js';
import type { SampleResult, StepLine } from '../stored/journal/records.js';
import type { JudgeSpec } from '../checks/judge.js';
import type { CheckResult } from '../checks/registry.js';
import type { CallOutcome, CompletionRequest, ServiceClient } from '../service/types.js';
import type { Prices } from '../core/catalog.js';
import type { StopReason } from '../core/stops.js';
import type { CaseError } from '../core/answer.js';
import type { Journal } from '../stored/journal/write.js';
import type { PlannedCase, PlannedCaseGroup } from './plan.js';
import { runJudge } from './judge-run.js';
import { hasJudges, splitExpectations } from '../checks/judge.js';
import { isBudgetCondition, isModelStop, isRunStop, stopKindOf } from '../core/error-kinds.js';
import type { ModelStops } from './model-stops.js';
import { resultFromOutcome, stepLine, turnPasses, withJudgeChecks } from './result.js';
import { type Conversation, converse, type StepAt } from './tool-loop.js';
import type { Message } from '../core/messages.js';
import { createFeeder } from './feeder.js';
import { createThrottle, type Throttle } from './throttle.js';
import { createAdaptiveSampler } from './adaptive.js';
import type { Samples } from '../stats/index.js';
import { type CostMeter, isCostCapStop } from './cost-cap.js';

export interface ExecuteOptions {
  /**
   * The samples to send, in plan order and in batches, taken as the services have room; each
   * `repeat: auto` case announced (AdaptiveStart) before its first sample.
   */
  plan: AsyncIterable<readonly PlanItem[]>;
  /** One client per service name used by the plan. */
  clients: ReadonlyMap<string, ServiceClient>;
  /** `--concurrency`: overrides every service's own `concurrency`. */
  concurrency?: number;
  journal: Journal;
  /** Stop scheduling (SIGINT/SIGTERM): nothing new is sent; in-flight requests go on. */
  interrupt?: AbortSignal;
  /** Abort in-flight requests too (after a grace period, or a second signal); they become not_run. */
  abortInFlight?: AbortSignal;
  now?: () => Date;
  /** Fires after each finished (journaled) sample: the fold and the progress display. */
  onResult?: (result: SampleResult) => void;
  /** Fires after each journaled step of a conversation (before its sample): the fold. */
  onStep?: (step: StepLine) => void;
  /** Fires when a service's 429s lower (or clean answers raise) its concurrency. */
  onThrottle?: (service: string, concurrency: number) => void;
  /** Prices per model, for a cost where the service reports none. */
  prices?: Prices;
  /**
   * The user's cost cap: every answer's cost (judges' included) is counted as it arrives,
   * and once the spent cost reaches the cap the run pauses like on a service's budget.
   */
  costMeter?: CostMeter;
  /**
   * The models stopped so far (a resumed run's, from its journal): a sample whose model or
   * judge is among them is not sent. An `invalid_model` answer adds its model, and
   * `onModelStop` is told, once per model.
   */
  modelStops?: ModelStops;
  onModelStop?: (stop: { service: string; model: string; error: CaseError }) => void;
  /**
   * `--bail N`: told of each finished sample; once it is reached nothing new is sent (what is
   * in flight finishes) and the rest of the plan is not run. Not a stop: the run completes.
   */
  bail?: { readonly reached: boolean; add(result: SampleResult): void };
  /** A case's baseline entry: what its checks see, and the answer judges compare against. */
  baselineCase?: (suite: string, caseId: string) => BaselineCase | null;
  /** For `repeat: auto` cases: the baseline's samples, and the samples already journaled (resume). */
  adaptive?: {
    baselineSamples: (suite: string, caseId: string) => Samples;
    done: readonly SampleResult[];
    alpha?: number;
    /** An adaptive case's sequential test decided, with these samples: no more of it. */
    onCaseDone?: (suite: string, caseId: string, samples: Samples) => void;
  };
}

/** A `repeat: auto` case the plan has reached, with how many samples of its first look are still to send. */
interface AdaptiveStart {
  adaptiveCase: PlannedCaseGroup;
  todo: number;
}

export type PlanItem = PlannedCase | AdaptiveStart;

export interface ExecuteOutcome {
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
  const meter = options.costMeter;
  const models = options.modelStops;
  /** A model the service said it does not have: it is sent nothing more (the rest of the run goes on). */
  const stopModel = (service: string, model: string, error: CaseError): void => {
    if (models?.stop(service, model, error)) options.onModelStop?.({ service, model, error });
  };
  /** Counts a call's cost; the cap reached pauses the run before the next request is sent. */
  const spend = (outcome: CallOutcome | null | undefined): void => {
    if (!meter || !outcome?.completion) return;
    meter.add(outcome.completion.usage, outcome.completion.model);
    stop ??= meter.reached();
  };
  const feeder = createFeeder<PlannedCase>({
    start: (planned) => runOne(planned),
    lane: (planned) => planned.service,
    // Twice the slots: while a finished sample is checked and journaled, the next waits ready.
    window: (service) =>
      2 * Math.max(1, options.concurrency ?? options.clients.get(service)!.service.concurrency) + 1,
    source: samples(options.plan[Symbol.asyncIterator](), (item) =>
      sampler.register(item.adaptiveCase, item.todo),
    ),
  });
  const schedule = (planned: PlannedCase) => feeder.push(planned);
  const sampler = createAdaptiveSampler(options, schedule);

  const runOne = async (planned: PlannedCase): Promise<void> => {
    const client = options.clients.get(planned.service)!;
    let startedAt = '';
    // One request of the sample (its only one, or a step of its tool loop), in a concurrency
    // slot that covers the HTTP exchange only: checks, journaling and bookkeeping run after
    // the slot is free, so they never delay the next request. Null: not sent.
    const send = (messages: Message[]) =>
      throttles.get(planned.service)!.limit(() => {
        // A resumed run may have spent its cap already: then nothing is sent.
        stop ??= interrupted() ?? meter?.reached() ?? null;
        if (stop || options.bail?.reached) return null;
        // Its model (or a judge's) was found missing: not sent, not run, with that reason.
        if (models?.size && models.reasonFor(planned.service, planned.model, judgesOf(planned))) return null;
        startedAt ||= now().toISOString();
        // One literal, the optional fields set after: spreading into it cost a slow object
        // build per request (V8 leaves its fast path for a spread of a wider object).
        const request: CompletionRequest = {
          model: planned.model,
          messages,
          params: planned.params,
          case_key: planned.key,
        };
        if (planned.case.sim) request.sim = planned.case.sim;
        if (options.abortInFlight) request.signal = options.abortInFlight;
        return client.complete(request).then((answer) => {
          // Decided before the slot is freed: the next queued request must already see the stop.
          spend(answer);
          if (answer.status === 'error' && isBudgetCondition(answer.error))
            stop ??= { kind: 'paused', error: answer.error };
          else if (answer.status === 'error' && isRunStop(answer.error))
            stop ??= { kind: stopKindOf(answer.error), error: answer.error };
          else if (answer.status === 'error' && isModelStop(answer.error))
            stopModel(planned.service, planned.model, answer.error);
          return answer;
        });
      });
    let outcome: CallOutcome | null;
    let conversation: Conversation | null = null;
    try {
      if (planned.case.tool_results || planned.case.turns) {
        // A conversation stopped before its end is not judged: a resumed run starts it again.
        conversation = await converse(
          planned.case,
          (messages, at) => sendStep(planned, send, messages, at),
          (turn, answer) => turnPasses(planned, turn, answer),
        );
        outcome = conversation?.steps.at(-1) ?? null;
      } else outcome = await send(planned.case.messages);
    } catch (error) {
      // Only our own abort is thrown: the answer never came, so the sample is simply not run.
      if (!options.abortInFlight?.aborted) throw error;
      return;
    }
    if (outcome === null) return;
    const changed = throttles.get(planned.service)!.observe(outcome);
    if (changed !== null) options.onThrottle?.(planned.service, changed);
    if (outcome.status === 'error' && isBudgetCondition(outcome.error)) {
      // Not an answer: the sample goes back to not_run and `--resume` sends it again.
      stop ??= { kind: 'paused', error: outcome.error };
      return;
    }
    const baseline = options.baselineCase?.(planned.suite.suite, planned.case.id) ?? null;
    let result = resultFromOutcome(planned, outcome, startedAt, options.prices, baseline, conversation);
    // A judge reads the answer, or the refusal the model gave instead of one.
    // A scripted conversation's judges are its first reply's (the case's own expect).
    const judgedTurn =
      conversation && planned.case.turns ? (conversation.turns[0]?.outcome ?? outcome) : outcome;
    const answer =
      judgedTurn.status === 'ok'
        ? judgedTurn.completion.content
        : result.error?.kind === 'refusal'
          ? (result.refusal ?? result.error.message)
          : null;
    // Most cases have no judge: they skip the judges' async step (a microtask turn per sample).
    if (typeof answer === 'string' && hasJudges(planned.case.expect)) {
      const judged = await runJudges(planned, answer, baseline?.content ?? null);
      if (judged.stop) {
        // The judge hit a budget or access condition: no verdict, so the sample is not run.
        stop ??= judged.stop;
        return;
      }
      // The judge's model is missing: no verdict, and the case is not run with that reason.
      if (judged.modelStopped) return;
      result = withJudgeChecks(result, judged.checks, judged.redacted);
    }
    // Nothing to redact here: every answer was redacted as the client read it.
    if (result.error && isRunStop(result.error))
      stop ??= { kind: stopKindOf(result.error), error: result.error };
    options.journal.appendLine(JSON.stringify(result));
    options.bail?.add(result);
    options.onResult?.(result);
    if (planned.adaptive && !stop) sampler.finished(planned, result);
  };

  /**
   * One step of a conversation, journaled the moment it is answered (what it cost, before
   * the conversation's sample): a run stopped part-way through the conversation leaves the
   * steps it paid for, which a resume counts as spent before it sends the conversation again.
   */
  const sendStep = async (
    planned: PlannedCase,
    send: (messages: Message[]) => Promise<CallOutcome | null>,
    messages: Message[],
    at: StepAt,
  ): Promise<CallOutcome | null> => {
    const outcome = await send(messages);
    if (outcome === null) return null;
    const line = stepLine(planned, at, outcome, options.prices);
    options.journal.appendLine(JSON.stringify(line));
    options.onStep?.(line);
    return outcome;
  };

  /** A case's judge checks: one call each, through the judge service's own client. */
  const runJudges = async (planned: PlannedCase, content: string, baseline: string | null) => {
    const checks: CheckResult[] = [];
    let redacted = false;
    const { judges } = splitExpectations(planned.case.expect);
    for (const [i, spec] of judges.entries()) {
      const service = spec.service ?? planned.service;
      const client = options.clients.get(service)!;
      const judged = await throttles.get(service)!.limit(() =>
        // A judge whose model was found missing (by another case's call) is not asked again.
        models?.errorOf(service, spec.model)
          ? null
          : runJudge(spec, content, baseline, client, {
              ...(options.prices ? { prices: options.prices } : {}),
              caseKey: `${planned.key}/judge${i}`,
              ...(options.abortInFlight ? { signal: options.abortInFlight } : {}),
            }).then((result) => {
              // Decided before the slot is freed: the next judge call queued must already see it.
              const o = result.outcome;
              if (o?.status === 'error' && isModelStop(o.error)) stopModel(service, spec.model, o.error);
              return result;
            }),
      );
      if (judged === null) return { checks, redacted, stop: null, modelStopped: true };
      const { check, outcome } = judged;
      // The sample's own judges finish it, even past the cap: it is in flight.
      spend(outcome);
      if (outcome?.status === 'error' && isBudgetCondition(outcome.error)) {
        return { checks, redacted, stop: { kind: 'paused', error: outcome.error } as StopReason };
      }
      if (outcome?.status === 'error' && isRunStop(outcome.error)) {
        return {
          checks,
          redacted,
          stop: { kind: stopKindOf(outcome.error), error: outcome.error } as StopReason,
        };
      }
      if (outcome?.status === 'error' && isModelStop(outcome.error))
        return { checks, redacted, stop: null, modelStopped: true };
      if (outcome?.redacted) redacted = true;
      checks.push(check);
    }
    return { checks, redacted, stop: null, modelStopped: false };
  };

  feeder.start();
  // Adaptive cases add samples while the run goes; the feeder waits for those too.
  await feeder.drained();
  // A signal that arrived once everything was already in flight still marks the run.
  stop ??= interrupted();
  // The cap's reason says what was spent in the end, the requests in flight at the cap included.
  if (meter && stop?.kind === 'paused' && isCostCapStop(stop.error)) stop = meter.reached() ?? stop;
  return { stop };
}

/** The judges a planned sample's case asks (none for most cases). */
function judgesOf(planned: PlannedCase): JudgeSpec[] | undefined {
  if (!hasJudges(planned.case.expect)) return undefined;
  return splitExpectations(planned.case.expect).judges;
}

/**
 * The plan's samples one at a time, from its batches: a sample of the batch in hand is
 * given at once, and only a new batch is waited for (a wait per sample cost about 5 % of
 * a run's CPU at 20,000 instant cases). An adaptive case is registered as it is reached.
 */
function samples(
  batches: AsyncIterator<readonly PlanItem[]>,
  register: (item: AdaptiveStart) => void,
): { next(): IteratorResult<PlannedCase> | Promise<IteratorResult<PlannedCase>> } {
  let batch: readonly PlanItem[] = [];
  let at = 0;
  const fromBatch = (): IteratorResult<PlannedCase> | null => {
    while (at < batch.length) {
      const item = batch[at++]!;
      if ('adaptiveCase' in item) register(item);
      else return { value: item, done: false };
    }
    return null;
  };
  const next = (): IteratorResult<PlannedCase> | Promise<IteratorResult<PlannedCase>> =>
    fromBatch() ??
    batches.next().then((result) => {
      if (result.done) return { value: undefined, done: true };
      batch = result.value;
      at = 0;
      return next();
    });
  return { next };
}
