import { madeJudgeCall } from '../checks/judge.js';
import { nearestRank } from '../stats/nearest-rank.js';
import type { DistinctAnswer } from '../stored/report/types.js';
import type { SampleResult } from '../stored/journal/records.js';
import type { ErrorKind } from '../core/answer.js';
import { addRecorded, startRecorded } from './recorded.js';
import { Tally } from '../util/tally.js';

/** How many distinct answers a case entry lists; the rest are counted, not kept. */
export const DISTINCT_ANSWERS = 8;

const known = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * What the fold keeps of one case while its samples arrive: counts, sums and at most a few
 * whole samples (the first by repeat, the first failing one), never the list of samples —
 * so a case sampled 100 times costs what a case sampled 10 times does.
 */
export class CaseFold {
  passed = 0;
  failed = 0;
  errored = 0;
  /** The sent sample with the lowest repeat: the answer a baseline keeps. */
  first: SampleResult | null = null;
  /** The failing or erroring sample with the lowest repeat. */
  firstFailure: SampleResult | null = null;
  /** Distinct answers; made at the second sample (a single sample's answer is `first`'s). */
  answers: Map<string | null, DistinctAnswer> | null = null;
  otherAnswers = 0;
  readonly models = new Tally<string>();
  /** The recorded fields' fold state (src/record/): providers, fingerprints, reasoning tokens, … */
  readonly recorded = startRecorded();
  readonly errorKinds = new Tally<ErrorKind>();
  /** Passing samples per expectation index. */
  readonly checkPasses: number[] = [];
  readonly latencies: number[] = [];
  /** Latencies of the answered samples (pass or fail): what latency drift compares. */
  readonly answeredLatencies: number[] = [];
  promptTokens = 0;
  completionTokens = 0;
  totalTokens = 0;
  withUsage = 0;
  cost: number | null = null;
  withCost = 0;
  /** Usage of the answered samples (pass or fail): completion tokens, total tokens, cost. */
  readonly answered = {
    with_usage: 0,
    completion_tokens: 0,
    total_tokens: 0,
    cost: null as number | null,
    with_cost: 0,
  };
  attempts = 0;
  waitMs = 0;
  judgeCalls = 0;
  judgeTokens = 0;
  judgeCost: number | null = null;
  redacted = false;
  adaptive = false;
  /** Samples that ran as a conversation (they keep a trajectory), and of those, the ones that ended with a text answer: within max_steps. */
  conversations = 0;
  finished = 0;

  get sent(): number {
    return this.passed + this.failed + this.errored;
  }

  /** Counts one sent sample (a not_run sample is not a sample: the plan knows it was due). */
  add(sample: SampleResult): void {
    if (sample.status === 'not_run') return;
    this[sample.status === 'pass' ? 'passed' : sample.status === 'fail' ? 'failed' : 'errored']++;
    if (this.first === null || sample.repeat < this.first.repeat) this.first = sample;
    if (sample.status !== 'pass' && (this.firstFailure === null || sample.repeat < this.firstFailure.repeat))
      this.firstFailure = sample;
    this.countAnswer(sample);
    this.models.add(sample.model);
    addRecorded(this.recorded, sample);
    this.errorKinds.add(sample.error?.kind ?? null);
    if (sample.trajectory) {
      this.conversations++;
      if (sample.status !== 'error') this.finished++;
    }
    sample.checks.forEach((check, i) => {
      this.checkPasses[i] = (this.checkPasses[i] ?? 0) + (check.pass ? 1 : 0);
      if (!check.judge || !madeJudgeCall(check)) return;
      this.judgeCalls++;
      const u = check.judge.usage;
      if (known(u?.total_tokens)) this.judgeTokens += u.total_tokens;
      if (known(u?.cost)) this.judgeCost = (this.judgeCost ?? 0) + u.cost;
    });
    if (known(sample.latency_ms)) {
      this.latencies.push(sample.latency_ms);
      if (sample.status !== 'error') this.answeredLatencies.push(sample.latency_ms);
    }
    const usage = sample.usage;
    if (usage) {
      this.withUsage++;
      if (known(usage.prompt_tokens)) this.promptTokens += usage.prompt_tokens;
      if (known(usage.completion_tokens)) this.completionTokens += usage.completion_tokens;
      if (known(usage.total_tokens)) this.totalTokens += usage.total_tokens;
      if (known(usage.cost)) {
        this.cost = (this.cost ?? 0) + usage.cost;
        this.withCost++;
      }
      if (sample.status !== 'error') {
        const a = this.answered;
        a.with_usage++;
        if (known(usage.completion_tokens)) a.completion_tokens += usage.completion_tokens;
        if (known(usage.total_tokens)) a.total_tokens += usage.total_tokens;
        if (known(usage.cost)) {
          a.cost = (a.cost ?? 0) + usage.cost;
          a.with_cost++;
        }
      }
    }
    this.attempts += sample.attempts;
    this.waitMs += sample.wait_ms;
    if (sample.redacted) this.redacted = true;
    if (sample.sampling === 'auto') this.adaptive = true;
  }

  /** Distinct answers, counted from the second sample on (the first is `first`'s, already kept). */
  private countAnswer(sample: SampleResult): void {
    if (this.sent === 1) {
      this.pending = { content: sample.content, count: 1, status: sample.status };
      return;
    }
    if (this.answers === null) {
      this.answers = new Map();
      if (this.pending) this.answers.set(this.pending.content, this.pending);
      this.pending = null;
    }
    const seen = this.answers.get(sample.content);
    if (seen) seen.count++;
    else if (this.answers.size < DISTINCT_ANSWERS)
      this.answers.set(sample.content, { content: sample.content, count: 1, status: sample.status });
    else this.otherAnswers++;
  }

  private pending: DistinctAnswer | null = null;
}

/** p50, p95 and max of a case's latencies (nearest rank), or null without any. */
export function latencySummary(values: readonly number[]): { p50: number; p95: number; max: number } | null {
  if (values.length === 0) return null;
  return { p50: nearestRank(values, 0.5)!, p95: nearestRank(values, 0.95)!, max: nearestRank(values, 1)! };
}
