import type { CaseError, ErrorKind, Usage } from '../../core/answer.js';
import type { CaseStatus } from '../../core/words.js';
import type { CheckResult } from '../../checks/registry.js';
import type { Drift } from '../../record/drift-kinds.js';
import type { ExitCode } from '../../util/exit-codes.js';
import type { LatencySketch } from '../baseline/types.js';
import type { Message } from '../../core/messages.js';
import type { RecordedCase, RecordedStats, RecordedSuite } from '../../record/registry.js';
import type { RunStatus } from '../../core/stops.js';
import type { SampleResult } from '../journal/records.js';
/** How a case's samples came out. `sent` = passed + failed + errored. */
export interface SampleCounts {
  planned: number;
  sent: number;
  passed: number;
  failed: number;
  errored: number;
  not_run: number;
}

/** A case's pass rate over its samples, and its test against the baseline's samples. */
export interface PassRate {
  rate: number;
  /** Wilson 95 % interval. */
  low: number;
  high: number;
  baseline: { pass: number; total: number } | null;
  /** One-sided p-value for "the pass rate dropped" (null without baseline samples). */
  p: number | null;
  /**
   * dropped: significantly lower than the baseline's · flaky: the baseline itself had mixed
   * outcomes and no significant drop · stable: no significant drop · new: no baseline samples.
   */
  verdict: 'dropped' | 'flaky' | 'stable' | 'new';
  /**
   * The baseline has too few samples for the test to show a drop (pass-rates.ts's
   * WEAK_BASELINE_SAMPLES): `stable` or `flaky` then is no evidence that nothing changed.
   * Absent in reports written before driftcheck said so.
   */
  weak_baseline?: boolean;
}

/**
 * A repeated tool loop's rate of finishing within max_steps: of its `total` samples (every one
 * that ran as a conversation), the `finished` ones ended with a text answer — not in
 * max_steps_reached, tool_result_missing or another error — and the rate's test against the
 * baseline's, whose `pass` are its finished samples. Tested as pass rates are.
 */
export interface WithinMaxSteps extends PassRate {
  finished: number;
  total: number;
}

/** One distinct answer of a repeated case, with how many samples gave it. */
export interface DistinctAnswer {
  content: string | null;
  count: number;
  /** How the first sample with this answer came out. */
  status: CaseStatus;
}

/** Sums and percentiles over a case's sent samples. */
export interface SampleStats extends RecordedStats {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Sum of the known costs (USD), null when no sample reported one. */
  cost: number | null;
  /** Samples that reported usage, and of those, a cost. */
  with_usage: number;
  with_cost: number;
  latency_ms: { p50: number; p95: number; max: number } | null;
  /** Usage of the answered samples only (pass or fail): what usage drift compares, so an error's usage never skews it. */
  answered: {
    with_usage: number;
    completion_tokens: number;
    total_tokens: number;
    cost: number | null;
    with_cost: number;
    /**
     * Latency of the answered samples, what a baseline keeps and latency drift compares (a
     * timed-out or rate-limited sample's time says nothing about the model's speed). Null
     * without any; absent in reports written before driftcheck kept it.
     */
    latency_ms?: LatencySketch | null;
  };
  /** Judge calls made for the case's samples, and their tokens and cost. */
  judge_calls: number;
  judge_tokens: number;
  judge_cost: number | null;
  attempts: number;
  wait_ms: number;
}

/**
 * One case of a run: its samples aggregated (per-sample detail stays in the journal). The
 * answer fields (`model` … `content`) are those of its first sent sample by repeat, the one
 * a baseline keeps; `first_failure` is the first failing or erroring sample whole.
 */
export interface CaseEntry extends RecordedCase {
  /** `suite/case`. */
  id: string;
  suite: string;
  case: string;
  service: string;
  requested_model: string;
  /** The verdict to read: a repeated case whose pass rate dropped is `fail`, whatever its first sample did. */
  status: CaseStatus;
  samples: SampleCounts;
  /** Present when the case (or its baseline) has more than one sample. */
  pass_rate: PassRate | null;
  /** A tool loop's rate of finishing within max_steps: present when it (or its baseline) has more than one sample. */
  within_max_steps?: WithinMaxSteps;
  sampling?: 'auto';
  model: string | null;
  /** Every concrete model that answered, most frequent first (recorded fields add providers, fingerprints). */
  models: string[];
  finish_reason: string | null;
  usage: Usage | null;
  cache_status: string | null;
  response_id: string | null;
  started_at: string | null;
  error: CaseError | null;
  /** Error kinds over the samples, with counts. */
  error_kinds: Partial<Record<ErrorKind, number>>;
  checks: CheckResult[];
  /** Passing samples per expectation, in `checks` order. */
  check_passes: number[];
  content: string | null;
  /**
   * A tool loop's or scripted conversation's first sample as its transcript reads it, beside
   * `trajectory` (its calls and the results given, by step); absent for a single request.
   */
  conversation?: CaseConversation;
  /** Distinct answers, most frequent first (at most DISTINCT_ANSWERS; the rest counted in other_answers). */
  answers: DistinctAnswer[];
  other_answers: number;
  first_failure: SampleResult | null;
  stats: SampleStats;
  drift: Drift[];
  messages: Message[];
  redacted: boolean;
  /** From the nightly history, for a case that changed: its last nights and the night the change began. */
  history?: CaseHistory;
  /**
   * What a reviewer needs of it, decided once by the fold (caseDetail): `brief` for a case
   * that passed every sample with nothing changed, which the HTML page lists as a row of
   * counts and JUnit as a bare testcase; `full` for everything a person reads.
   */
  detail: CaseDetail;
}

/**
 * A conversation as report.json keeps it of its case's first sample (src/fold/conversation.ts):
 * what each request was answered by, and a scripted conversation's turns. A few fields a
 * request: its calls, arguments and results are the trajectory's, its usage the sample's.
 */
export interface CaseConversation {
  /** Each request in order: what served it and how it finished. */
  steps: ConversationStep[];
  /** A scripted conversation's turns reached (`turns:`), in order; absent for one turn. */
  turns?: ConversationTurn[];
}

/** One request of a conversation. */
export interface ConversationStep {
  model: string | null;
  /** Where the service said (a routing service's upstream provider); absent where it did not. */
  provider?: string;
  finish_reason: string | null;
  latency_ms: number;
  /** The error it ended with, when it did. */
  error?: ErrorKind;
}

/** One scripted turn: its user message (null: the case's own messages), its reply, and its last request (1-based). */
interface ConversationTurn {
  user: string | null;
  content: string | null;
  finish_reason: string | null;
  last_step: number;
}

/** How much of a case the reviewing reports show: see CaseEntry.detail. */
export type CaseDetail = 'full' | 'brief';

/** A changed case's recent nights, from the history (`run --history`). */
export interface CaseHistory {
  /** Oldest first; tonight is not among them. */
  nights: { run_id: string; started_at: string; status: CaseStatus; passes: number; samples: number }[];
  /** The first night of the case's current streak, counting tonight; null when nothing changed within the history. */
  since: { run_id: string; started_at: string } | null;
}

export interface RunInfo {
  id: string;
  started_at: string;
  finished_at: string;
  status: RunStatus;
  exit_code: ExitCode;
  /** argv with secrets removed. */
  command: string[];
  driftcheck_version: string;
  sim: boolean;
  /** `--model` candidate, when the run compared a candidate against the baseline. */
  candidate_model: string | null;
  /**
   * `--providers` candidate: the router provider every router suite was pinned to
   * (`provider: { only: [it], allow_fallbacks: false }`). Absent in reports written before it.
   */
  candidate_provider?: string | null;
  /** Suites of the selection a candidate did not run, and why (absent in reports written before it). */
  skipped_suites?: SkippedSuite[];
  shard: { index: number; total: number } | null;
  /** Why the run stopped early (budget pause, auth stop), when it did. */
  stop_reason: CaseError | null;
  /**
   * Models the run stopped sending to, each at its first `invalid_model` answer, while every
   * other model went on (exit 2 at the end). Absent when none was (and in reports written before it).
   */
  model_stops?: ModelStop[];
  /**
   * What the run is (absent in reports written before it existed: read them with `provenanceOf`):
   * baselines and the nightly history refuse candidate, simulator and shard runs by it.
   */
  provenance: Provenance;
  /** A recheck of a stored run: what it could not check (absent for a run that sent its requests). */
  recheck?: RecheckInfo;
  /** `run --bail N` was reached: sending stopped after that many failing cases, the rest not run. */
  bail?: RunBail;
  /**
   * Conversations the run stopped part-way, in any of its sessions: their steps were paid
   * for (their cost is in the run's) and never judged; `--resume` sends each again from its
   * first step. Absent when none was (and in reports written before it).
   */
  unjudged_steps?: UnjudgedSteps;
}

/** Steps of conversations stopped part-way (stored/journal/unjudged.ts): how many, of how many conversations, and what they cost. */
export interface UnjudgedSteps {
  conversations: number;
  steps: number;
  /** USD over the steps whose cost is known; null when none is. */
  cost: number | null;
  /** Tokens over the steps that reported usage (counted in the run's tokens, as the cost is in its cost). */
  tokens: { prompt: number; completion: number; total: number };
}

/** A run that stopped sending at `--bail N`: the limit, and the failing cases counted by then. */
export interface RunBail {
  limit: number;
  failing: number;
}

/**
 * A model a service answered it does not have (`invalid_model`: retired from its catalog, or
 * mistyped): the run sent it nothing more, and its cases not sent yet are `not_run` with this
 * error. The journal records it (`model_stop`), so a resumed run does not send it either.
 */
export interface ModelStop {
  service: string;
  model: string;
  /**
   * Where the run took the model from: each suite file that pins it (`suites/a.yaml:3:8`), a
   * judge's suite (`suites/a.yaml (a judge)`), or `--model` for a candidate.
   */
  pinned: string[];
  /** The closest ids in the service's `GET /models` (`did you mean …?`), null when none or unreadable. */
  hint: string | null;
  /** The answer that stopped it. */
  error: CaseError;
}

/** A suite a candidate run left out: the candidate belongs to another kind of service. */
export interface SkippedSuite {
  suite: string;
  reason: string;
}

/**
 * Where a report's verdicts come from. A candidate, simulator or shard run never passes
 * for a nightly one: `baseline accept` and the history read this (src/fold/provenance.ts).
 */
export interface Provenance {
  /** `nightly`: the suites' own models; `candidate`: `run --model`/`--models`/`--providers`. */
  kind: 'nightly' | 'candidate';
  /** Answered by the embedded simulator (`run --sim`). */
  sim: boolean;
  /** One shard of a sharded run, alone (`run --shard I/N`); null for a merge of every shard. */
  shard: { index: number; total: number } | null;
  /** Every case of its suites was planned: no `--filter`, no `--shard`, or every shard merged. */
  complete: boolean;
  /** The command that wrote the report: the run itself, `report` re-rendering its journal, `merge`, `diff` or `recheck`. */
  rendered_by: 'run' | 'report' | 'merge' | 'diff' | 'recheck';
  /**
   * A recheck (`driftcheck recheck RUN_DIR`): the id of the run whose stored answers were
   * checked again. Nothing was sent; baselines never take it. Absent: answered by this run.
   */
  recheck_of?: string;
}

/**
 * What a recheck did not check, listed in its report: today's cases with no stored answer
 * to check (not run), and stored answers whose case is gone from today's suites.
 */
export interface RecheckInfo {
  /** The run whose journal the answers came from. */
  of: string;
  /** Cases of today's suites with no stored answer (`suite/case`), each with why. */
  not_answered: { case: string; reason: string }[];
  /** Stored answers whose case is no longer in today's suites (`suite/case`). */
  dropped: string[];
}

/**
 * The counts every reporter shows, computed once (report/summary.ts). Cases are the unit:
 * passed + failed + errored + not_run = cases; samples count the requests behind them.
 */
export interface Summary {
  cases: number;
  samples: number;
  passed: number;
  failed: number;
  errored: number;
  not_run: number;
  /** Cases with drift of severity fail. */
  regressed: number;
  /** Cases with any drift other than new_case. */
  drifted: number;
  /** Suite-level findings (missing cases, suite pass rate or usage), counted apart from cases. */
  suite_findings: number;
  /** Of those, findings of severity fail. */
  suite_regressed: number;
}

/** Usage summed over a suite's cases, and the baseline's over the same cases. */
export interface SuiteUsage {
  run: UsageTotals;
  /** Over the cases both this run and the baseline have: this run's, then the baseline's. */
  compared: { cases: number; run: TokenTotals; baseline: TokenTotals } | null;
}

export interface TokenTotals {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cost: number | null;
}

export interface SuiteReport extends RecordedSuite {
  suite: string;
  file: string;
  service: string;
  requested_model: string;
  /** Concrete models that answered. */
  models: string[];
  /** `baselines/<suite>.json` when one existed. */
  baseline: string | null;
  /** Suite-level drift (missing_case, pass_rate_dropped across cases, usage_changed). */
  drift: Drift[];
  cases: number;
  usage: SuiteUsage;
  /**
   * The suite's `system:` prompt, in front of every case's messages. report.json (schema 3)
   * holds it here once and each case's messages without it; readers put it back.
   */
  system?: string;
}

/** The report's head: everything but the cases. Reporters get it once every case is folded. */
export interface ReportHead {
  /** 3: suite-shared text once per suite, case lines without what a reader restores (report/case-line.ts). 2 is still read. */
  schema_version: 2 | 3;
  run: RunInfo;
  summary: Summary;
  suites: SuiteReport[];
}

/** `report.json`: the head, then one entry per case in plan order. */
export interface Report extends ReportHead {
  cases: CaseEntry[];
}

/** Usage summed over a suite's answered samples (and, separately, its judge calls), for reports. */
export interface UsageTotals {
  /** Samples that were sent and came back (not_run excluded). */
  samples: number;
  /** Of those, samples that reported usage. */
  with_usage: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Sum of the known costs (USD), or null when no sample had one. */
  cost: number | null;
  /** Samples whose cost was known: less than with_usage means `cost` is a lower bound. */
  cost_samples: number;
  judge: { calls: number; total_tokens: number; cost: number | null };
}
