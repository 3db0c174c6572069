import { shapeProblem } from '../shape.js';
import type { DriftTolerance, SuiteTable } from '../../suite/types.js';
import type { ModelStop, RecheckInfo, RunBail, SkippedSuite } from '../report/types.js';
import type { JudgeSpec } from '../../checks/judge.js';
import type { RunStatus, StopReason } from '../../core/stops.js';
import type { Message } from '../../core/messages.js';
import type { CaseError, Usage } from '../../core/answer.js';
import type { CaseStatus } from '../../core/words.js';
import type { CheckResult } from '../../checks/registry.js';
import type { ServedBy } from '../../record/answer.js';
import type { ToolCall } from '../../core/tool-calls.js';

/**
 * 7: each step of a conversation (a tool loop, scripted turns) is journaled as it is
 * answered (`step`), before the conversation's sample: a run stopped part-way knows what
 * it paid for. 6: a case made from a table row also holds the digest of the messages it sends (`sent`):
 * a recheck matches the row's stored answers by it, so a changed check or another row of
 * the table leaves them matched. 5: a case made from a table row holds the row's place (`row`), not its messages; a run
 * writes each suite's plan record when it reaches the suite, before the suite's first
 * sample, not every suite's before the first. 4: a plan record names the tables its suite's cases were made from, with their digests
 * (`tables`), which `--resume` checks. 3: a plan record holds its suite's `system` prompt
 * once, and each case only its own messages (2 repeated the system prompt in every case: a
 * 256 KB prompt over 2,200 cases made one 563 MB line, past what a string can hold).
 * Journals of versions 2 and 3 are still read (a plan without `tables` checks none).
 */
export const JOURNAL_VERSION = 7;

/**
 * The journal (`results.jsonl`) is the run's source of truth: every report, merge, diff,
 * resume and baseline is folded from it. One JSON object per line:
 *
 * - `run`: the first line, once — who ran what;
 * - `plan`: one per planned suite, before the suite's first sample — its cases in plan
 *   order, with what a report shows of them (messages, or a table row's place) and what
 *   drift rules apply;
 * - a sample (no `type`): one finished request, the moment it finished;
 * - `step`: one request of a conversation, the moment it was answered (journal 7): what it
 *   cost, never what it said (the sample that ends the conversation keeps that). A
 *   conversation whose steps no sample follows was stopped part-way: it is never judged,
 *   a resumed run sends it again from its first step, and its steps count as spent
 *   (stored/journal/unjudged.ts);
 * - `model_stop`: a model the service answered it does not have, once per model, when that
 *   answer came: it is sent nothing more, in this session or a resumed one;
 * - `end`: how the run stopped. A killed run has none, and a resumed run adds samples after
 *   an earlier `end`: only an `end` that no sample follows counts.
 */
export type JournalRecord = RunRecord | PlanRecord | ModelStopRecord | EndRecord | StepLine | SampleRecord;

export interface RunRecord {
  type: 'run';
  /** 2 or JOURNAL_VERSION: what this driftcheck reads. */
  journal_version: 2 | 3 | 4 | 5 | 6 | typeof JOURNAL_VERSION;
  id: string;
  started_at: string;
  command: string[];
  driftcheck_version: string;
  sim: boolean;
  candidate_model: string | null;
  /** `--providers` candidate (absent in journals written before it). */
  candidate_provider?: string | null;
  /** Suites of the selection the candidate did not run, and why (absent before it existed). */
  skipped_suites?: SkippedSuite[];
  shard: { index: number; total: number } | null;
  /** False when a filter or shard planned only part of the suites: nothing is `missing_case` then. */
  complete: boolean;
  /** A recheck's journal (`driftcheck recheck`): the stored run it checked again, and how it chose today's cases. */
  recheck?: RecheckRecord;
}

/**
 * What a recheck's run record says: what it could not check (shown in its reports), and
 * the selection it re-planned today's suites with, so a recheck of it selects the same.
 */
interface RecheckRecord extends RecheckInfo {
  selection: RecheckSelection;
}

/** The suites (as the run was given them) and the plan options (filter, shard, candidate) a recheck selects with. */
export interface RecheckSelection {
  paths: string[];
  plan: PlanOptions;
  allow_alias: boolean;
}

export interface PlanCase {
  id: string;
  /** Position in the unsharded, unfiltered plan: shards merge back into this order. */
  ordinal: number;
  /** Planned samples; `auto` plans ADAPTIVE_SAMPLING.min and adds while uncertain. */
  repeat: number | 'auto';
  /**
   * As sent: the plan's `system` in front, once read (the journal holds only the case's own,
   * see journalPlan). Absent for a case made from a table row (journal 5): `row` says where.
   */
  messages?: Message[];
  /**
   * A case made from a table row (journal 5): the table's index in the plan's `tables` and
   * the row's line. Its messages are made again from the table (run/plan-messages.ts).
   */
  row?: [number, number];
  /**
   * A case made from a table row (journal 6): sentDigest of the messages it sent, what a
   * recheck matches its stored answers by. Absent in older journals: a recheck then matches
   * a row only while its table and template are unchanged.
   */
  sent?: string;
  drift?: DriftTolerance;
  /**
   * The case's judge checks as they were asked, in `expect:` order (their verdicts follow
   * the local checks in each sample): a recheck keeps a stored verdict only for a judge that
   * is the same today. Absent: no judge (or a journal written before it was recorded).
   */
  judges?: JudgeSpec[];
  /**
   * judgeBaselineDigest of the baseline answer the case's `equivalent_to_baseline` judges
   * compared with (null: none); absent when no judge compares with the baseline.
   */
  judge_baseline?: string | null;
}

export interface PlanRecord {
  type: 'plan';
  suite: string;
  file: string;
  service: string;
  requested_model: string;
  drift?: DriftTolerance;
  /**
   * The suite's system prompt, in front of every case's messages. The journal (version 3)
   * holds it here once and each case without it: see journalPlan.
   */
  system?: string;
  /** The tables the suite's cases were made from, each with its row count and digest (journal 4). */
  tables?: SuiteTable[];
  cases: PlanCase[];
}

/**
 * A plan record as the journal holds it: the suite's system prompt once, each case without
 * it. recordOf puts it back in front when the journal is read.
 */
export function journalPlan(plan: PlanRecord): PlanRecord {
  const { system } = plan;
  if (system === undefined) return plan;
  return {
    ...plan,
    cases: plan.cases.map((c) => {
      if (!c.messages) return c;
      const [first, ...own] = c.messages;
      return first?.role === 'system' && first.content === system ? { ...c, messages: own } : c;
    }),
  };
}

/**
 * A plan record as every reader takes it: each case's messages as sent. The system text is
 * one string shared by every case, so it is held once in memory too.
 */
function withSystem(plan: PlanRecord): PlanRecord {
  const { system } = plan;
  if (typeof system !== 'string') return plan;
  const message: Message = { role: 'system', content: system };
  return {
    ...plan,
    cases: plan.cases.map((c) =>
      c.row && !c.messages ? c : { ...c, messages: [message, ...(c.messages ?? [])] },
    ),
  };
}

/** A model the run stopped sending to (run/model-stops.ts); a journal without any has none. */
type ModelStopRecord = { type: 'model_stop' } & ModelStop;

/** A model stop's record as the journal holds it. */
export function modelStopRecord(stop: ModelStop): ModelStopRecord {
  return { type: 'model_stop', ...stop };
}

/** The model stop a record holds. */
export function modelStopOf({ type: _type, ...stop }: ModelStopRecord): ModelStop {
  return stop;
}

export interface EndRecord {
  type: 'end';
  finished_at: string;
  status: RunStatus;
  stop: StopReason | null;
  /** `--bail N` was reached in this session: sending stopped after that many failing cases. */
  bail?: RunBail;
}

export type SampleRecord = SampleResult & { type?: undefined };

/**
 * One request of a conversation as it was answered (journal 7): which sample it belongs to,
 * its turn and its place in the conversation (both from 1), and what its StepRecord says
 * but the calls it made. Its sample, when the conversation ends, keeps every step whole.
 */
export interface StepLine extends Omit<StepRecord, 'tool_calls'> {
  type: 'step';
  /** The sample's key (`suite/case#repeat`). */
  key: string;
  suite: string;
  case: string;
  repeat: number;
  turn: number;
  step: number;
}

/**
 * Which record a parsed line is: the record; null for a line that is none (foreign or
 * damaged); or, for a line of a record's kind whose fields do not have the record's types
 * (stored/schemas.ts; a sample is report.schema.json's `$defs/sample`), what is wrong with it.
 */
export function checkedRecordOf(value: unknown): JournalRecord | { problem: string } | null {
  const record = recordOf(value);
  if (record === null) return null;
  const shape =
    record.type === undefined
      ? 'sample'
      : record.type === 'run'
        ? 'journal-run'
        : (`journal-${record.type}` as const);
  const problem = shapeProblem(shape, record);
  return problem === null ? record : { problem };
}

/** Which record a parsed line is, or null for a line that is none (foreign or damaged). */
function recordOf(value: unknown): JournalRecord | null {
  if (value === null || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  switch (v.type) {
    case 'run':
      return typeof v.id === 'string' && typeof v.started_at === 'string'
        ? (v as unknown as RunRecord)
        : null;
    case 'plan':
      return typeof v.suite === 'string' && Array.isArray(v.cases)
        ? withSystem(v as unknown as PlanRecord)
        : null;
    case 'end':
      return typeof v.status === 'string' ? (v as unknown as EndRecord) : null;
    case 'model_stop':
      return typeof v.service === 'string' && typeof v.model === 'string'
        ? (v as unknown as ModelStopRecord)
        : null;
    case 'step':
      return typeof v.key === 'string' && typeof v.suite === 'string' && typeof v.step === 'number'
        ? (v as unknown as StepLine)
        : null;
    case undefined:
      return asSample(v);
    default:
      return null;
  }
}

/**
 * A sample line as every reader uses it: named, with a status; its checks, when given, a
 * list of objects (none given: none); its answer text or null, its usage an object or null.
 * A line otherwise (a hand edit, a foreign tool) is damaged and passed over, never folded
 * into a crash.
 */
function asSample(v: Record<string, unknown>): SampleRecord | null {
  const object = (x: unknown) => typeof x === 'object' && x !== null && !Array.isArray(x);
  const valid =
    typeof v.key === 'string' &&
    typeof v.suite === 'string' &&
    typeof v.case === 'string' &&
    typeof v.status === 'string' &&
    (v.checks === undefined || (Array.isArray(v.checks) && v.checks.every(object))) &&
    (v.content == null || typeof v.content === 'string') &&
    (v.usage == null || object(v.usage));
  if (!valid) return null;
  return (v.checks === undefined ? { ...v, checks: [] } : v) as unknown as SampleRecord;
}

export interface PlanOptions {
  /** `--repeat N|auto`: overrides every suite and case repeat. */
  repeat?: number | 'auto';
  /** `--filter GLOB`: matched against `suite/case` and against the case id. */
  filter?: string;
  /** `--shard I/N` (1-based). */
  shard?: { index: number; total: number };
  /** `--model ID` candidate. */
  model?: string;
  /** `--service NAME`. */
  service?: string;
  /** `--providers` candidate: router suites are pinned to this provider (withProviderPin). */
  provider?: string;
  /** Suites a candidate does not run (it belongs to another kind of service): left out of the plan. */
  skip?: readonly SkippedSuite[];
  /** `run --failed RUN_DIR`: only these cases (`suite/case`), those that failed, errored or regressed there. */
  cases?: readonly string[];
  /** `--stream`: every request asks for its answer as a stream (`params.stream: true`). */
  stream?: true;
}

/**
 * One sample of one case: a line of the journal (`results.jsonl`), the run's source of
 * truth; what served it (ServedBy) only where the service said.
 */
export interface SampleResult extends ServedBy {
  /** `suite/case#repeat` — unique within a run. */
  key: string;
  suite: string;
  case: string;
  repeat: number;
  service: string;
  requested_model: string;
  model: string | null;
  response_id: string | null;
  finish_reason: string | null;
  usage: Usage | null;
  latency_ms: number | null;
  wait_ms: number;
  attempts: number;
  status: CaseStatus;
  error: CaseError | null;
  attempt_errors: CaseError[];
  checks: CheckResult[];
  content: string | null;
  started_at: string | null;
  /** True when a key value was found and replaced in this result. */
  redacted: boolean;
  /** `auto`: the case was sampled adaptively (`repeat: auto`); its verdict is the sequential test's. */
  sampling?: 'auto';
  cache_status?: string | null;
  /**
   * A tool loop's requests, each as it was answered; the sample's own fields are its last
   * step's answer, with usage, cost, latency, waits and attempts added up over the steps.
   */
  steps?: StepRecord[];
  /** A scripted conversation's turns as they went: each user message (null: the case's own) and the reply. */
  turns?: { user: string | null; content: string | null; finish_reason: string | null }[];
}

/** One request of a tool loop, as the service answered it. */
export interface StepRecord {
  model: string | null;
  provider?: string | null;
  finish_reason: string | null;
  usage: Usage | null;
  latency_ms: number;
  attempts: number;
  /** The calls this step's answer made (each judged against the declared tools). */
  tool_calls?: ToolCall[];
  error?: CaseError;
}
