import type { DriftSeverity } from '../record/drift-kinds.js';
import type { StepsTolerance } from '../record/field.js';
import type { ErrorKind } from '../core/answer.js';
import type { Expectation } from '../checks/registry.js';
import type { Message, RequestParams } from '../core/messages.js';
import type { SourceLocation } from '../util/errors.js';
/**
 * Faults the embedded simulator can be told to produce for one request: every error
 * kind a service can cause, plus a reply cut short at max_tokens.
 */
export type SimFault =
  | Exclude<
      ErrorKind,
      'preflight' | 'endpoint_not_found' | 'tool_result_missing' | 'max_steps_reached' | 'stream_interrupted'
    >
  | 'length';

/**
 * Per-case instructions for the embedded simulator (`sim:` in a suite). Sent only
 * when running against the simulator; a real service never sees them.
 */
export interface SimDirective {
  fault?: SimFault;
  /** Exact reply text instead of the simulator's deterministic answer. */
  reply?: string;
  finish_reason?: string;
  /** Extra latency before answering. */
  delay_ms?: number;
  /** Retry-After seconds on `rate_limited` (default 1). */
  retry_after_s?: number;
  /** Produce the fault only for the first N matching requests, then answer normally. */
  fail_times?: number;
  /**
   * A stochastic model: each request answers normally with this probability, else with
   * `fail_reply` — the known truth behind pass-rate tests and the verdict benchmark.
   */
  pass_rate?: number;
  /** The answer of a sample that "fails" under pass_rate (default "I am not sure."). */
  fail_reply?: string;
  /** Router: the provider that serves this case (another provider answers the same model differently). */
  provider?: string;
  /** The `system_fingerprint` to report (a backend change). */
  fingerprint?: string;
  /**
   * A tool-calling or structured-output fault of the serving provider (see SimToolFault); with
   * `provider`, that provider's alone: a request pinned to another one does not get it.
   */
  tool_fault?: SimToolFault;
  /** The share of requests it hits (default 1), by seeded coins. */
  tool_fault_rate?: number;
  /**
   * How the serving provider's model plays its side of a tool loop wrong (see SimAgentFault);
   * with `provider`, that provider's alone, as `tool_fault`.
   */
  agent_fault?: SimAgentFault;
  /** The share of requests it hits (default 1), by seeded coins. */
  agent_fault_rate?: number;
  /**
   * How the serving provider's stream goes wrong (see SimStreamFault); with `provider`, that
   * provider's alone, as `tool_fault`.
   */
  stream_fault?: SimStreamFault;
  /** The share of requests it hits (default 1), by seeded coins. */
  stream_fault_rate?: number;
  /** How long a `stall` (the directive's or a provider's standing one) pauses a stream, in ms. */
  stall_ms?: number;
  /**
   * How fast the serving provider generates, in tokens per second (default: the provider's
   * own rate, README "The embedded simulator"); with `provider`, that provider's alone.
   */
  tokens_per_s?: number;
}

/**
 * How a provider gets tool calls and structured outputs wrong: a call's arguments that are
 * not JSON, a tool name that was not declared, arguments that miss the schema, a text answer
 * where a call was due, several calls where `parallel_tool_calls: false` allows one, tools or
 * `response_format` ignored (the router avoids such a provider under `require_parameters`).
 */
export type SimToolFault =
  | 'invalid_json'
  | 'unknown_tool'
  | 'schema_mismatch'
  | 'no_call'
  | 'parallel_calls'
  | 'ignore_tools'
  | 'ignore_response_format';

/**
 * One answer driftcheck gives a tool the model calls (`tool_results:`): for a call whose
 * arguments match `when` (partially, as `tool_call` matches), or any call when `when` is
 * absent (the tool's default). The first rule that matches answers.
 */
interface ToolResultRule {
  when?: Record<string, unknown>;
  /** The tool message's content: text as written, any other value as its JSON. */
  result: string;
}

/** What driftcheck answers each tool with, by tool name; a case's rules over the suite's, tool by tool. */
export type ToolResults = Record<string, ToolResultRule[]>;

/** The default of `max_steps`: requests a conversation may send before it is `max_steps_reached`. */
export const DEFAULT_MAX_STEPS = 8;

/**
 * How a model goes wrong in a tool loop: it calls the same tool with the same arguments again
 * instead of answering, answers without the results' words, answers after the first result
 * instead of chaining, makes parallel calls in another order, or (a reasoning model) answers
 * without the results when its `reasoning_details` were not sent back with its turn.
 */
export type SimAgentFault = 'loop' | 'ignore_result' | 'stop_early' | 'reorder' | 'drop_reasoning';

/**
 * How a stream (`stream: true`) goes wrong: the first token comes late, the stream pauses
 * between chunks, the connection ends or an error event comes after some content, many
 * keep-alive comments come first, no usage chunk comes, or the bytes are written split inside
 * a UTF-8 character or a JSON string.
 */
export type SimStreamFault =
  'slow_first_token' | 'stall' | 'cut' | 'error_after_content' | 'keepalive' | 'no_usage' | 'split_utf8';

/** One scripted user turn of a conversation and the checks of the reply to it. */
interface SuiteTurn {
  user: string;
  expect: Expectation[];
}

export interface SuiteCase {
  id: string;
  /** System message (if any) already prepended; `prompt:` already expanded. */
  messages: Message[];
  expect: Expectation[];
  repeat?: number | 'auto';
  sim?: SimDirective;
  /** The case's own `drift:` tolerance; overrides the suite's field by field. */
  drift?: DriftTolerance;
  /** The request parameters when the case sets its own (`params:`, merged over the suite's key by key). */
  params?: RequestParams;
  /** Present: the case runs as a tool loop, driftcheck answering the model's calls with these. */
  tool_results?: ToolResults;
  /** At most this many requests in the loop (default DEFAULT_MAX_STEPS). */
  max_steps?: number;
  /**
   * Later user turns, each sent after the model's reply to the one before (its messages
   * first), each reply checked by its own expectations; the case's own `expect` checks the first.
   */
  turns?: SuiteTurn[];
  /** A turn whose checks fail ends the conversation (default: the later turns are still sent). */
  stop_on_failure?: boolean;
  /** Where the case is written: its item under `cases:`, or the table row it was generated from. */
  location: SourceLocation;
}

/** A table a suite takes cases from (`tables:`), as read: what `list` shows. */
export interface SuiteTable {
  /** The table file, as messages name it. */
  file: string;
  format: string;
  rows: number;
  /**
   * sha256 (hex) of the table's text as it was read: a run's plan record keeps it, and
   * `--resume` refuses a table that changed since (its rows would make other cases).
   */
  digest: string;
  /**
   * sha256 (hex) of the template its rows are filled into, the suite's `system` with it: a
   * case planned as a row (journal 5) asks the same only when the table and this are the same.
   */
  template?: string;
  /**
   * The template as written (the table's `case:`): a run's plan record keeps it, so that a
   * report makes a row's prompt again from the journal and the table alone.
   */
  case?: Record<string, unknown>;
}

export interface Suite {
  suite: string;
  file: string;
  service: string;
  model: string;
  params: RequestParams;
  /** The suite's `system:` prompt, already in front of every case's messages (the journal stores it once). */
  system?: string;
  repeat?: number | 'auto';
  /** The suite's `drift:` tolerance for content and usage comparisons with the baseline. */
  drift?: DriftTolerance;
  /** The suite's `tool_results:`, under every case's own. */
  tool_results?: ToolResults;
  max_steps?: number;
  cases: SuiteCase[];
  /** The tables its generated cases come from, in the order written (absent: cases written inline only). */
  tables?: SuiteTable[];
  location: SourceLocation;
  /** Where `service:` is written (a service that is not configured is reported there). */
  service_location?: SourceLocation;
  /** Where `model:` is written (a model the service does not have is reported there). */
  model_location?: SourceLocation;
  /**
   * How many cases the suite makes and the samples they plan (null when a case is
   * `repeat: auto`: how many it takes is decided as it runs). Set by loadSuites, which
   * counts them as it validates, also when it does not keep them (`cases: 'none'`).
   */
  counts?: { cases: number; samples: number | null };
  /**
   * The suite file a suite loaded without its cases came from (set by loadSuites): `path` absolute, `digest` the
   * sha256 (hex) of its text as validated. readSuiteCases reads the cases again from there,
   * and refuses a file that changed since.
   */
  source?: {
    path: string;
    digest: string;
    /**
     * Each of its tables' bytes as validated, by table (in `tables` order): the sha256 (hex)
     * of each piece a run reads it again in, checked before any row of that piece is used.
     */
    tablePieces: readonly (readonly string[])[];
  };
  /**
   * The judges its cases call (each judge check's service, when it names one, and model),
   * set when loadSuites does not keep the cases (`cases: 'none'`): what pre-flight and
   * `validate` need of cases that are not held (see judgeTargets).
   */
  judges?: { service?: string; model: string }[];
}

/** What `drift.content.normalize` may ignore before two answers are compared. */
export type ContentNormalization = 'whitespace' | 'case' | 'punctuation';

/** `drift.content`: when a changed answer counts as changed, and how badly. */
export interface ContentTolerance {
  /** Differences to ignore: answers equal after these are not drift at all. */
  normalize?: ContentNormalization[];
  /** Similarity (0..1) below which content_changed is a warning rather than info. */
  similarity?: number;
  /** Compare as JSON (key order and formatting ignored): true forces, false never; unset: when both sides are JSON. */
  json?: boolean;
}

/** `drift.usage`: relative changes (0.25 = ±25 %) tolerated before usage_changed. */
export interface UsageTolerance {
  completion_tokens?: number;
  total_tokens?: number;
  cost?: number;
}

/**
 * `drift.latency`: a case's p50 or p95 latency moved beyond both `relative` (0.5 = ±50 %)
 * and `absolute_ms`, and a rank test says it is no noise: latency_changed of `severity`.
 */
export interface LatencyTolerance {
  relative?: number;
  absolute_ms?: number;
  /** Of a slowdown on a nightly run (a speed-up, and a candidate run's change, are info). */
  severity?: DriftSeverity;
}

/** `drift:` on a suite or a case. */
export interface DriftTolerance {
  content?: ContentTolerance;
  usage?: UsageTolerance;
  latency?: LatencyTolerance;
  steps?: StepsTolerance;
}
