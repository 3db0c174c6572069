import { canonicalJson } from '../../util/json-compare.js';
import { isJudgeVerdict, judgeNeedsCall, planJudge, splitExpectations } from '../../checks/judge.js';
import type { CheckRequest, Expectation } from '../../checks/registry.js';
import { checksByTurn, sampleChecks, sampleStatus, type TurnReply, withJudgeChecks } from '../result.js';
import type { BaselineCase } from '../../stored/baseline/types.js';
import type { SampleResult } from '../../stored/journal/records.js';
import type { JudgeSpec } from '../../checks/judge.js';
import type { CheckResult } from '../../checks/registry.js';
import type { Completion } from '../../record/answer.js';

/** What a recheck knows of one case's judges: today's and the run's, and the baseline they compare with. */
export interface JudgeContext {
  /** The run being rechecked, as the needs-a-call messages name it. */
  runId: string;
  /** The judges the run asked, in order (null: its journal does not say). */
  asked: readonly JudgeSpec[] | null;
  /** Today's baseline answer of the case, for equivalence judges (null: none). */
  baselineContent: string | null;
  /** Today's baseline answer is the one the run's equivalence judges compared with. */
  sameBaseline: boolean;
}

/**
 * One stored sample checked again by today's expectations, sending nothing. Local checks run
 * on the stored answer exactly as a run would run them (sampleChecks); a judge keeps the
 * run's verdict only when today's judge is the one the run asked (and, comparing with the
 * baseline, against the same baseline answer), else it is not evaluated and fails, saying
 * it needs a call. A sample that was never sent stays as it is. Pure.
 */
export function recheckSample(
  stored: SampleResult,
  expect: readonly Expectation[],
  judges: JudgeContext,
  around: {
    request: CheckRequest;
    baseline: BaselineCase | null;
    /** Today's expectations of a scripted conversation's later turns, in order. */
    turns?: readonly (readonly Expectation[])[];
  },
): SampleResult {
  if (stored.status === 'not_run') return stored;
  const failed = stored.status === 'error';
  const refusal =
    failed && stored.error?.kind === 'refusal' ? (stored.refusal ?? stored.error.message) : null;
  const completion = failed && refusal === null ? null : completionOf(stored);
  const { turns, ...context } = around;
  if (stored.turns && turns) return recheckTurns(stored, expect, turns, context, judges);
  const checks = sampleChecks(expect, completion, failed, refusal, {
    ...context,
    measured: { latency_ms: stored.latency_ms, cost: stored.usage?.cost ?? null },
    // A tool loop's checks read every step, as the run read them.
    ...(stored.steps
      ? {
          conversation: {
            steps: stored.steps.length,
            calls: stored.steps.flatMap((step) => step.tool_calls ?? []),
          },
        }
      : {}),
  });
  const result: SampleResult = { ...stored, checks, status: sampleStatus(failed, checks) };
  // Judges read the answer, or the refusal given instead; any other error has no answer to judge.
  if (completion === null) return result;
  const answer = refusal ?? completion.content;
  return withJudgeChecks(result, judgeChecks(stored, splitExpectations(expect).judges, answer, judges));
}

/** Today's judges of one sample: skipped as a run would skip them, kept from the run, or needing a call. */
function judgeChecks(
  stored: SampleResult,
  today: readonly JudgeSpec[],
  answer: string,
  context: JudgeContext,
): CheckResult[] {
  // The run's judge verdicts follow its local checks, one per judge it asked, in order.
  const verdicts = stored.checks.filter((c) => c.type === 'judge');
  const asked = context.asked?.map((spec) => canonicalJson(spec)) ?? null;
  const used = new Set<number>();
  const run = `run ${context.runId}`;
  return today.map((spec) => {
    const plan = planJudge(spec, answer, context.baselineContent);
    if (plan.kind === 'skip') return plan.result;
    if (asked === null)
      return judgeNeedsCall(
        spec,
        `the journal of ${run} does not record its judges (an older driftcheck wrote it)`,
      );
    const wanted = canonicalJson(spec);
    const k = asked.findIndex((a, i) => !used.has(i) && a === wanted);
    if (k < 0) return judgeNeedsCall(spec, `this judge is not the one ${run} asked (it changed since)`);
    used.add(k);
    if (spec.equivalent_to_baseline && !context.sameBaseline)
      return judgeNeedsCall(spec, `the baseline answer it compares with changed since ${run}`);
    const verdict = verdicts[k];
    if (!verdict || !isJudgeVerdict(verdict))
      return judgeNeedsCall(
        spec,
        `${run} has no verdict of it${verdict?.judge ? ` (${verdict.judge.verdict})` : ''}`,
      );
    return verdict;
  });
}

/** The stored answer as the completion the checks read (they read its content, finish_reason and usage). */
function completionOf(s: SampleResult): Completion {
  const completion: Completion = {
    id: s.response_id,
    model: s.model,
    content: s.content ?? '',
    finish_reason: s.finish_reason,
    usage: s.usage,
  };
  if (s.tool_calls) completion.tool_calls = s.tool_calls;
  return completion;
}

/**
 * A scripted conversation checked again: each stored reply by today's expectations of its
 * turn (the case's own the first), named by its turn as the run named them; a turn the run
 * never reached, or one today's suite added, is not evaluated. Judges run on the first reply
 * only, as in the run, and keep its verdicts as judgeChecks decides.
 */
function recheckTurns(
  stored: SampleResult,
  expect: readonly Expectation[],
  turns: readonly (readonly Expectation[])[],
  around: { request: CheckRequest; baseline: BaselineCase | null },
  judges: JudgeContext,
): SampleResult {
  const last = stored.turns!.length - 1;
  const replies = stored.turns!.map((reply, i): TurnReply => {
    // The conversation's error (a loop past its bounds) is its last turn's.
    const failed = i === last && stored.status === 'error';
    const completion: Completion = {
      id: null,
      model: stored.model,
      content: reply.content ?? '',
      finish_reason: reply.finish_reason,
      usage: null,
    };
    return { completion: failed ? null : completion, failed, refusal: null };
  });
  const checks = checksByTurn([expect, ...turns], replies, {
    ...around,
    measured: { latency_ms: stored.latency_ms, cost: stored.usage?.cost ?? null },
  });
  const failed = stored.status === 'error';
  const result: SampleResult = { ...stored, checks, status: sampleStatus(failed, checks) };
  const first = stored.turns![0]?.content;
  if (typeof first !== 'string') return result;
  return withJudgeChecks(result, judgeChecks(stored, splitExpectations(expect).judges, first, judges));
}
