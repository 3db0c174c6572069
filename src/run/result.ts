import { runChecks } from '../checks/run.js';
import { roundCost, withCost } from '../core/cost.js';
import { hasJudges, splitExpectations } from '../checks/judge.js';
import type { CheckContext, Expectation } from '../checks/registry.js';
import { copyRecorded } from '../record/registry.js';
import type { BaselineCase } from '../stored/baseline/types.js';
import type { SampleResult, StepLine, StepRecord } from '../stored/journal/records.js';
import type { Usage } from '../core/answer.js';
import type { Conversation } from './tool-loop.js';
import type { CheckResult } from '../checks/registry.js';
import type { Completion } from '../record/answer.js';
import type { CallOutcome } from '../service/types.js';
import type { Prices } from '../core/catalog.js';
import { type PlannedCase, plannedRequest } from './plan.js';

/**
 * Turns one call's outcome into the sample's result, local checks evaluated (judges run
 * later, in the runner) and cost filled from the prices table where the service gave none. Pure.
 */
export function resultFromOutcome(
  planned: PlannedCase,
  outcome: CallOutcome,
  startedAt: string,
  prices?: Prices,
  baseline: BaselineCase | null = null,
  conversation: Conversation | null = null,
): SampleResult {
  const completion = outcome.completion;
  // A tool loop is judged on its last answer, its usage, cost and latency its steps' sum.
  const loop = conversation ? conversationTotals(conversation, prices) : null;
  const failed = outcome.status === 'error' || Boolean(conversation?.error);
  const usage = loop ? loop.usage : completion ? withCost(completion.usage, completion.model, prices) : null;
  const latency = loop ? loop.latency_ms : Math.round(outcome.latency_ms);
  const around = {
    request: plannedRequest(planned),
    baseline,
    measured: { latency_ms: latency, cost: usage?.cost ?? null },
    ...(loop ? { conversation: loop.view } : {}),
  };
  const checks = planned.case.turns
    ? checksByTurn(
        turnExpectations(planned),
        conversation!.turns.map((t) => replyOf(t.outcome)),
        around,
      )
    : sampleChecks(planned.case.expect, completion, failed, refusalText(outcome), around);
  const result = newResult(planned, {
    model: completion?.model ?? (outcome.status === 'error' ? outcome.error.model : null) ?? null,
    response_id: completion?.id ?? null,
    finish_reason: completion?.finish_reason ?? null,
    usage,
    latency_ms: latency,
    wait_ms: loop ? loop.wait_ms : Math.round(outcome.wait_ms),
    attempts: loop ? loop.attempts : outcome.attempts,
    status: sampleStatus(failed, checks),
    error: conversation?.error ?? (outcome.status === 'error' ? outcome.error : null),
    attempt_errors: outcome.attempt_errors,
    checks,
    content: completion ? answerText(completion) : null,
    started_at: startedAt,
    redacted: outcome.redacted || Boolean(loop?.redacted),
  });
  if (conversation && planned.case.turns)
    result.turns = conversation.turns.map((t) => ({
      user: t.user,
      content: t.outcome.completion?.content ?? null,
      finish_reason: t.outcome.completion?.finish_reason ?? null,
    }));
  if (loop) {
    result.steps = loop.steps;
    result.trajectory = { steps: loop.steps.length, calls: conversation!.trajectory };
  }
  if (outcome.cache_status) result.cache_status = outcome.cache_status;
  // What served it, only the fields the service gave (journal lines stay short).
  if (completion) copyRecorded(result, completion);
  return result;
}

/**
 * A sample's local checks (judges run later, in the runner), the same for a fresh answer
 * and a stored one a recheck reads again. A refusal is checked as the answer it is (a
 * `not_contains: "I can't"` fails on it, and says so); on any other error every
 * expectation, judges included, shows as not evaluated.
 */
export function sampleChecks(
  expect: readonly Expectation[],
  completion: Completion | null,
  failed: boolean,
  refusal: string | null,
  around: Omit<CheckContext, 'completion'>,
): CheckResult[] {
  if (failed && refusal === null) return runChecks(expect, null);
  if (!completion) return runChecks(expect, null);
  // Without a judge among them (most cases) the expectations are the local ones as they are.
  const local = hasJudges(expect) ? splitExpectations(expect).local : expect;
  const checked = refusal !== null ? { ...completion, content: refusal } : completion;
  return runChecks(local, { ...around, completion: checked });
}

/** A sample's status from its checks: an error stays one. */
export function sampleStatus(failed: boolean, checks: readonly CheckResult[]): SampleResult['status'] {
  return failed ? 'error' : checks.every((c) => c.pass) ? 'pass' : 'fail';
}

/** The answer's text; null for a tool-call answer without any (the services send `content: null`). */
function answerText(completion: Completion): string | null {
  return completion.content === '' && completion.tool_calls?.length ? null : completion.content;
}

/** The refusal text of an outcome the service classified as a refusal, or null. */
function refusalText(outcome: CallOutcome): string | null {
  if (outcome.status !== 'error' || outcome.error.kind !== 'refusal') return null;
  return outcome.completion?.refusal ?? outcome.error.message;
}

type Outcome = Pick<
  SampleResult,
  | 'model'
  | 'response_id'
  | 'finish_reason'
  | 'usage'
  | 'latency_ms'
  | 'wait_ms'
  | 'attempts'
  | 'status'
  | 'error'
  | 'attempt_errors'
  | 'checks'
  | 'content'
  | 'started_at'
  | 'redacted'
>;

/** One sample's result. */
function newResult(planned: PlannedCase, o: Outcome): SampleResult {
  const result: SampleResult = {
    key: planned.key,
    suite: planned.suite.suite,
    case: planned.case.id,
    repeat: planned.repeat,
    service: planned.service,
    requested_model: planned.model,
    model: o.model,
    response_id: o.response_id,
    finish_reason: o.finish_reason,
    usage: o.usage,
    latency_ms: o.latency_ms,
    wait_ms: o.wait_ms,
    attempts: o.attempts,
    attempt_errors: o.attempt_errors,
    content: o.content,
    started_at: o.started_at,
    redacted: o.redacted,
    status: o.status,
    error: o.error,
    checks: o.checks,
  };
  if (planned.adaptive) result.sampling = 'auto';
  return result;
}

/**
 * Adds the judges' verdicts to a finished sample and recomputes its status; `redacted`: a
 * judge's answer held a secret (replaced as it was read), which the sample then says.
 */
export function withJudgeChecks(result: SampleResult, judged: CheckResult[], redacted = false): SampleResult {
  if (judged.length === 0) return result;
  const checks = [...result.checks, ...judged];
  const marked = redacted || result.redacted;
  // An error (a refusal) stays an error: the judges' verdicts are recorded beside it.
  if (result.status === 'error') return { ...result, checks, redacted: marked };
  return { ...result, checks, redacted: marked, status: sampleStatus(false, checks) };
}

/** One request of a conversation as its sample keeps it: what served it, its usage with its cost, its calls. */
function stepRecord(o: CallOutcome, prices?: Prices): StepRecord {
  const done = o.completion;
  const step: StepRecord = {
    model: done?.model ?? null,
    finish_reason: done?.finish_reason ?? null,
    usage: done ? withCost(done.usage, done.model, prices) : null,
    latency_ms: Math.round(o.latency_ms),
    attempts: o.attempts,
  };
  if (done?.provider !== undefined) step.provider = done.provider;
  if (done?.tool_calls?.length) step.tool_calls = done.tool_calls;
  if (o.status === 'error') step.error = o.error;
  return step;
}

/**
 * A step's journal line, the moment it is answered: the step as its sample will keep it,
 * but the calls it made (the sample keeps those), with the sample it belongs to, its turn
 * and its place in the conversation. Pure.
 */
export function stepLine(
  planned: PlannedCase,
  at: { turn: number; step: number },
  outcome: CallOutcome,
  prices?: Prices,
): StepLine {
  const { tool_calls: _calls, ...step } = stepRecord(outcome, prices);
  return {
    type: 'step',
    key: planned.key,
    suite: planned.suite.suite,
    case: planned.case.id,
    repeat: planned.repeat,
    turn: at.turn,
    step: at.step,
    ...step,
  };
}

/** A tool loop's steps as a sample keeps them, and what they add up to. */
function conversationTotals(c: Conversation, prices?: Prices) {
  const steps = c.steps.map((o) => stepRecord(o, prices));
  return {
    steps,
    usage: addUsage(steps.map((s) => s.usage)),
    latency_ms: steps.reduce((sum, s) => sum + s.latency_ms, 0),
    wait_ms: Math.round(c.steps.reduce((sum, o) => sum + o.wait_ms, 0)),
    attempts: steps.reduce((sum, s) => sum + s.attempts, 0),
    redacted: c.steps.some((o) => o.redacted),
    view: { steps: steps.length, calls: steps.flatMap((s) => s.tool_calls ?? []) },
  };
}

/** Usage added up counter by counter; a counter no step reported stays null. */
function addUsage(all: readonly (Usage | null)[]): Usage | null {
  const given = all.filter((u): u is Usage => u !== null);
  if (given.length === 0) return null;
  const sum = (key: 'prompt_tokens' | 'completion_tokens' | 'total_tokens' | 'cost') => {
    const values = given.map((u) => u[key]).filter((v): v is number => typeof v === 'number');
    return values.length ? values.reduce((a, b) => a + b, 0) : null;
  };
  const usage: Usage = {
    prompt_tokens: sum('prompt_tokens'),
    completion_tokens: sum('completion_tokens'),
    total_tokens: sum('total_tokens'),
  };
  const cost = sum('cost');
  if (cost !== null) usage.cost = roundCost(cost);
  return usage;
}

/** A conversation's expectations by turn: the case's own for the first reply, then each turn's. */
function turnExpectations(planned: PlannedCase): (readonly Expectation[])[] {
  return [planned.case.expect, ...(planned.case.turns ?? []).map((t) => t.expect)];
}

/** One turn's reply as its checks read it; absent when the conversation never reached the turn. */
export interface TurnReply {
  completion: Completion | null;
  failed: boolean;
  refusal: string | null;
}

const replyOf = (o: CallOutcome): TurnReply => ({
  completion: o.completion,
  failed: o.status === 'error',
  refusal: refusalText(o),
});

/** Whether a turn's reply passes its own checks (`stop_on_failure` ends the conversation when not). */
export function turnPasses(planned: PlannedCase, turn: number, outcome: CallOutcome): boolean {
  const expectations = turnExpectations(planned)[turn] ?? [];
  return checksByTurn([expectations], [replyOf(outcome)], {
    request: plannedRequest(planned),
    baseline: null,
    measured: { latency_ms: Math.round(outcome.latency_ms), cost: outcome.completion?.usage?.cost ?? null },
  }).every((c) => c.pass);
}

/**
 * A scripted conversation's checks, for a run and a recheck alike: each turn's reply by its
 * own expectations, named by its turn (`turn 2: …`); a turn never reached (the conversation
 * stopped, or a turn added since) shows its checks as not evaluated.
 */
export function checksByTurn(
  expectations: readonly (readonly Expectation[])[],
  replies: readonly (TurnReply | undefined)[],
  around: Omit<CheckContext, 'completion'>,
): CheckResult[] {
  return expectations.flatMap((expect, turn) => {
    const r = replies[turn];
    const checks = r
      ? sampleChecks(expect, r.completion, r.failed, r.refusal, around)
      : sampleChecks(expect, null, true, null, around);
    return checks.map((c) => ({ ...c, message: `turn ${turn + 1}: ${c.message}` }));
  });
}
