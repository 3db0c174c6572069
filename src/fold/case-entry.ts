import { roundCost } from '../core/cost.js';
import { ADAPTIVE_SAMPLING } from '../stats/adaptive.js';
import type { PlanRecord } from '../stored/journal/records.js';
import type { CaseEntry, WithinMaxSteps } from '../stored/report/types.js';
import type { CaseStatus } from '../core/words.js';
import type { CaseError, ErrorKind } from '../core/answer.js';
import { isLoopError } from '../core/error-kinds.js';
import { recordedCase, recordedStats } from './recorded.js';
import { type CaseFold, latencySummary } from './case-fold.js';
import { latencySketch } from '../stats/sketch.js';
import type { CaseStats, RateStats } from './pass-rates.js';
import { conversationOf } from './conversation.js';

/**
 * A case's report entry from its folded samples. Without `stat` (its pass-rate test, decided
 * over the suite) its status is its first sample's: the suite's verdicts finish it.
 */
export function caseEntry(
  plan: PlanRecord,
  id: string,
  messages: CaseEntry['messages'],
  repeat: number | 'auto',
  fold: CaseFold,
  stat: CaseStats | undefined,
  stopError: CaseError | null,
): CaseEntry {
  const first = fold.first;
  const sent = fold.sent;
  const errorKinds = Object.fromEntries(fold.errorKinds.entries());
  const planned = repeat === 'auto' ? Math.max(ADAPTIVE_SAMPLING.min, sent) : Math.max(repeat, sent);
  const entry: CaseEntry = {
    id: `${plan.suite}/${id}`,
    suite: plan.suite,
    case: id,
    service: first?.service ?? plan.service,
    requested_model: first?.requested_model ?? plan.requested_model,
    status: caseVerdict({
      sent,
      errored: errorsShown(fold.errored, errorKinds),
      single: first?.status ?? null,
      failing: stat ? stat.failing : null,
    }),
    samples: {
      planned,
      sent,
      passed: fold.passed,
      failed: fold.failed,
      errored: fold.errored,
      not_run: planned - sent,
    },
    pass_rate: passRateOf(stat),
    model: first?.model ?? null,
    models: fold.models.byFrequency(),
    ...recordedCase(fold.recorded, first, fold.firstFailure),
    finish_reason: first?.finish_reason ?? null,
    usage: first?.usage ?? null,
    cache_status: first?.cache_status ?? null,
    response_id: first?.response_id ?? null,
    started_at: first?.started_at ?? null,
    error: sent === 0 ? stopError : (fold.firstFailure?.error ?? null),
    error_kinds: errorKinds,
    checks: first?.checks ?? [],
    check_passes: fold.checkPasses,
    content: first?.content ?? null,
    ...conversationField(first),
    answers: fold.answers ? [...fold.answers.values()].sort((a, b) => b.count - a.count) : [],
    other_answers: fold.otherAnswers,
    // The first sample is shown whole already; a later failing one is kept beside it.
    first_failure: fold.firstFailure && fold.firstFailure !== first ? fold.firstFailure : null,
    stats: {
      prompt_tokens: fold.promptTokens,
      completion_tokens: fold.completionTokens,
      total_tokens: fold.totalTokens,
      ...recordedStats(fold.recorded),
      cost: fold.cost === null ? null : roundCost(fold.cost),
      with_usage: fold.withUsage,
      with_cost: fold.withCost,
      answered: {
        ...fold.answered,
        cost: fold.answered.cost === null ? null : roundCost(fold.answered.cost),
        latency_ms: latencySketch(fold.answeredLatencies),
      },
      latency_ms: latencySummary(fold.latencies),
      attempts: fold.attempts,
      wait_ms: fold.waitMs,
      judge_calls: fold.judgeCalls,
      judge_tokens: fold.judgeTokens,
      judge_cost: fold.judgeCost === null ? null : roundCost(fold.judgeCost),
    },
    drift: [],
    messages,
    redacted: fold.redacted,
    // Decided once the entry is final (RunFold, after the history's annotations): see caseDetail.
    detail: 'full',
  };
  if (repeat === 'auto' || fold.adaptive) entry.sampling = 'auto';
  return entry;
}

/** The first sample's conversation as the entry holds it: only a conversation's entry has the key. */
function conversationField(first: CaseFold['first']): Pick<CaseEntry, 'conversation'> {
  const conversation = conversationOf(first);
  return conversation ? { conversation } : {};
}

/**
 * The verdict of a case: a single sample's own status; for a repeated case its pass-rate
 * rule (a failing sample among passing ones is noise), except that any error shows
 * (`errored`: errorsShown). `failing` is that rule's answer (`failsRun`: fewer than half
 * the samples pass, or the pass rate dropped against the baseline), null for a case sampled
 * once. The fold and the history's reader of driftcheck 0.1 reports both decide with it.
 */
export function caseVerdict(c: {
  sent: number;
  errored: number;
  single: CaseStatus | null;
  failing: boolean | null;
}): CaseStatus {
  if (c.sent === 0) return 'not_run';
  if (c.failing === null) return c.single!;
  if (c.errored > 0) return 'error';
  return c.failing ? 'fail' : 'pass';
}

/** The pass rate a repeated case's entry shows, from its test; null for a case sampled once. */
export function passRateOf(stat: RateStats | undefined): CaseEntry['pass_rate'] {
  if (!stat) return null;
  return {
    rate: stat.rate,
    low: stat.low,
    high: stat.high,
    baseline: stat.baseline,
    p: stat.p,
    verdict: stat.verdict,
    weak_baseline: stat.weak_baseline ?? false,
  };
}

/** A tool loop's rate of finishing within max_steps as its entry shows it, from its test. */
export function withinOf(stat: RateStats): WithinMaxSteps {
  return { finished: stat.samples.pass, total: stat.samples.total, ...passRateOf(stat)! };
}

/**
 * A repeated case's errored samples whose error shows in its verdict. A tool loop that ended
 * in max_steps_reached or tool_result_missing (isLoopError) was answered at every step: the
 * model looped or called what no rule answers, a failed sample as a failing check is, which
 * its pass rate and its rate of finishing within max_steps judge against the baseline's. Any
 * other error (the service's) shows.
 */
export function errorsShown(errored: number, kinds: Readonly<Partial<Record<ErrorKind, number>>>): number {
  let shown = errored;
  for (const [kind, count] of Object.entries(kinds)) if (isLoopError(kind as ErrorKind)) shown -= count ?? 0;
  return shown;
}
