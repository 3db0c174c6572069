import type { DriftKind } from './baseline/drift-kinds.js';
import type { CheckType, Expectation } from './checks/registry.js';
import type { ExitCode } from './exit-codes.js';
import type {
  Recorded,
  RecordedBaseline,
  RecordedCase,
  RecordedStats,
  RecordedSuite,
} from './record/registry.js';

/**
 * Shared domain types. Every stage of the pipeline (suite → service → run → checks →
 * baseline → report) speaks these; a module's own options type lives beside it.
 */

// ─── Config ──────────────────────────────────────────────────────────────────

/** Service A (routing service) or Service B (direct model service) semantics. */
export type ServiceKind = 'router' | 'direct';
// A new kind is a member here, an adapter in src/service/adapters/ (ADAPTERS is a
// Record<ServiceKind, …>, so it does not compile without one), and the config schema's enum.

export interface ServiceConfig {
  /** The key under `services:`; suites refer to it. */
  name: string;
  kind: ServiceKind;
  /** Ends in `/v1` (router: `…/api/v1`). `${ENV}` already expanded. */
  base_url: string;
  /** Name of the env variable holding the key; the key itself is never stored here. */
  api_key_env: string;
  /** Attribution headers (router); never used for authentication. */
  headers: Record<string, string>;
  max_tokens: number;
  timeout_s: number;
  retries: number;
  concurrency: number;
  /** Model used by `verify` when no suite names one for this service. */
  verify_model?: string;
}

export interface Config {
  /** The file it was read from, or null for the built-in defaults. */
  file: string | null;
  services: Record<string, ServiceConfig>;
  /** `prices:` — USD per 1M tokens by concrete model id; used where a service reports no usage.cost. */
  prices?: Prices;
  /** `max_cost:` — the most a run may spend, in USD (`run --max-cost` overrides it). */
  max_cost?: number;
  /** `history: { dir }` — the nightly history folder, as written in the config (relative to the config file). */
  history?: { dir: string };
}

// ─── Suites ──────────────────────────────────────────────────────────────────

export interface SourceLocation {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

export type Role = 'system' | 'user' | 'assistant' | 'tool';

/**
 * One chat message in the services' own (OpenAI) shape, carried to the service with every
 * field it has. The suite schema decides which fields a suite may write: role and content,
 * an assistant turn's `tool_calls` (its content may then be null) and a `tool` result's `tool_call_id`.
 */
export interface Message {
  role: Role;
  content: string | null;
  name?: string;
  tool_calls?: MessageToolCall[];
  tool_call_id?: string;
}

/** A tool call as an assistant message carries it (`arguments` is JSON text). */
export interface MessageToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/**
 * Request parameters, sent as the suite wrote them (the suite schema refuses any it does not
 * declare); a kind's own ones (`provider`, `reasoning_effort`) only to that kind (its adapter's `params`).
 */
export interface RequestParams {
  [param: string]: unknown;
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  seed?: number;
  reasoning_effort?: string;
  /** Router provider preferences (`provider: { only, order, allow_fallbacks, … }`), sent as given to router services. */
  provider?: ProviderPreferences;
  /**
   * Function tools as the services take them. A suite as written may name a file holding
   * them (a string); the loader puts the tools in its place before any request is made.
   */
  tools?: unknown[] | string;
  /** auto, none, required, or `{ type: function, function: { name } }`. */
  tool_choice?: unknown;
  parallel_tool_calls?: boolean;
  /** `{ type: json_object }` or `{ type: json_schema, json_schema: { name, strict, schema } }`. */
  response_format?: unknown;
}

/** The routing service's documented provider preferences (a suite pins the provider with them). */
export interface ProviderPreferences {
  order?: string[];
  only?: string[];
  ignore?: string[];
  allow_fallbacks?: boolean;
  require_parameters?: boolean;
  data_collection?: 'allow' | 'deny';
  zdr?: boolean;
  quantizations?: string[];
  sort?: 'price' | 'throughput' | 'latency';
}

export type { CheckType, Expectation } from './checks/registry.js';

/**
 * Faults the embedded simulator can be told to produce for one request: every error
 * kind a service can cause, plus a reply cut short at max_tokens.
 */
export type SimFault = Exclude<ErrorKind, 'preflight' | 'endpoint_not_found'> | 'length';

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

// ─── Diagnostics (suite/config validation) ───────────────────────────────────

export interface Diagnostic extends SourceLocation {
  message: string;
  /** What the user should do about it. */
  hint?: string;
  /**
   * `warning`: something that may be right (a finish_reason a service may have added) and is
   * reported without stopping; absent: an error.
   */
  severity?: 'warning';
  /** The problem is the file or folder as a whole (missing, unreadable): no line to point at. */
  whole_file?: true;
}

/** Validation returns this instead of throwing; warnings come with a value too. */
export type Validated<T> =
  { value: T; errors?: undefined; warnings?: Diagnostic[] } | { value?: undefined; errors: Diagnostic[] };

// ─── Service calls ───────────────────────────────────────────────────────────

/** DESIGN.md's normalised error vocabulary, one for both services. */
export type ErrorKind =
  | 'preflight'
  | 'auth'
  | 'permission'
  | 'insufficient_credit'
  | 'budget_exceeded'
  | 'depleted'
  | 'routing'
  | 'rate_limited'
  | 'invalid_model'
  | 'body_error'
  | 'empty_choices'
  | 'empty_content'
  | 'timeout'
  | 'network'
  | 'bad_response'
  | 'server_error'
  | 'refusal'
  | 'content_filter'
  | 'endpoint_not_found';

export interface CaseError {
  kind: ErrorKind;
  /** HTTP status of the response, or null when none arrived. */
  http_status: number | null;
  /** The service's normalised error type (`error.type` or `error.metadata.error_type`). */
  type: string | null;
  /** The service's error code (`error.code`, as a string). */
  code: string | null;
  /** Key-free message. */
  message: string;
  /** The model the failing request named (or the body reported). */
  model: string | null;
  /** Seconds the service asked us to wait, when it said. */
  retry_after_s?: number | null;
}

export interface Usage {
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  /** Credits/USD when the service reports it (`usage.cost`). */
  cost?: number | null;
}

/**
 * What served an answer, where the service says (provider, system_fingerprint, …): on each
 * completion, and kept on its sample. Declared once per field in src/record/fields/.
 */
export type ServedBy = Recorded;
export type { DriftKind } from './baseline/drift-kinds.js';

export interface Completion extends ServedBy {
  id: string | null;
  /** The concrete model that answered (may differ from the requested alias). */
  model: string | null;
  content: string;
  finish_reason: string | null;
  usage: Usage | null;
}

export interface CompletionRequest {
  model: string;
  messages: Message[];
  params: RequestParams;
  /** Only sent when the client talks to the embedded simulator. */
  sim?: SimDirective;
  /**
   * Identifies the case (e.g. `suite/case#repeat`) so the simulator can count sends per
   * case; sent as a header only to the simulator, never to a real service.
   */
  case_key?: string;
  signal?: AbortSignal;
}

/** What one logical call produced, after retries. Failures are data, not exceptions. */
export type CallOutcome =
  | {
      status: 'ok';
      completion: Completion;
      http_status: number;
      latency_ms: number;
      /** Time spent waiting between attempts (backoff / Retry-After). */
      wait_ms: number;
      attempts: number;
      attempt_errors: CaseError[];
      /** `X-OpenRouter-Cache-Status` when the service sent it (a cache hides drift). */
      cache_status?: string | null;
      /** A secret was found in an attempt's answer and replaced as it was read. */
      redacted: boolean;
    }
  | {
      status: 'error';
      error: CaseError;
      /** What could still be read (model, usage, finish_reason) — e.g. for empty content. */
      completion: Completion | null;
      http_status: number | null;
      latency_ms: number;
      wait_ms: number;
      attempts: number;
      attempt_errors: CaseError[];
      cache_status?: string | null;
      redacted: boolean;
    };

export interface ServiceClient {
  readonly service: ServiceConfig;
  complete(request: CompletionRequest): Promise<CallOutcome>;
  close(): Promise<void>;
}

// ─── Checks, drift, results ──────────────────────────────────────────────────

export interface CheckResult {
  type: CheckType;
  pass: boolean;
  message: string;
  /** A judge check's call: the concrete judge model, its usage and its verdict. */
  judge?: JudgeCall;
}

export type DriftSeverity = 'fail' | 'warn' | 'info';

export interface Drift {
  kind: DriftKind;
  severity: DriftSeverity;
  baseline: unknown;
  current: unknown;
  /** One line a reviewer can read. */
  message: string;
  /** content_changed: 0..1 similarity of baseline vs current content. */
  similarity?: number;
}

export type CaseStatus = 'pass' | 'fail' | 'error' | 'not_run';

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
}

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

/** How much of a case the reviewing reports show: see CaseEntry.detail. */
export type CaseDetail = 'full' | 'brief';

/** A changed case's recent nights, from the history (`run --history`). */
export interface CaseHistory {
  /** Oldest first; tonight is not among them. */
  nights: { run_id: string; started_at: string; status: CaseStatus; passes: number; samples: number }[];
  /** The first night of the case's current streak, counting tonight; null when nothing changed within the history. */
  since: { run_id: string; started_at: string } | null;
}

// ─── Baselines ───────────────────────────────────────────────────────────────

export interface BaselineCase extends RecordedBaseline {
  status: 'pass' | 'fail' | 'error';
  requested_model: string;
  model: string | null;
  finish_reason: string | null;
  usage: Usage | null;
  content: string | null;
  error_kind: ErrorKind | null;
  checks: { type: CheckType; pass: boolean }[];
  /** Outcome of every sample when the case was repeated. */
  samples?: { pass: number; total: number };
  /** The answered samples' latency, for latency_changed (absent: none answered, or an older baseline). */
  latency_ms?: LatencySketch;
}

/**
 * A case's latencies in a few numbers a baseline file can hold and a rank test can use:
 * nearest-rank p50 and p95 over all `n` values, and `sample`, the values themselves sorted
 * when there are at most LATENCY_SAMPLE_CAP of them, else that many evenly spaced quantiles.
 */
export interface LatencySketch {
  n: number;
  p50: number;
  p95: number;
  sample: number[];
}

/** `baselines/<suite>.json`: committed, reviewable. */
export interface Baseline {
  schema_version: 1;
  suite: string;
  service: string;
  model: string;
  /** Run id the baseline was accepted from. */
  source_run: string;
  /**
   * What that run was, when it was not a nightly run of the real services (a simulator,
   * candidate or shard run, accepted with `--force` where that is needed). Absent: nightly.
   */
  provenance?: BaselineProvenance;
  cases: Record<string, BaselineCase>;
}

/** A baseline's source run, when it was not a plain nightly one. */
export type BaselineProvenance = Omit<Provenance, 'rendered_by'> & {
  /** Accepted with `--force` despite what the run was. */
  forced: boolean;
};

// ─── Reports ─────────────────────────────────────────────────────────────────

export type RunStatus = 'completed' | 'paused' | 'interrupted';

/** Why a run ended before its plan did. */
export type StopReason =
  | { kind: 'paused' | 'access' | 'config'; error: CaseError }
  | { kind: 'interrupted'; error: null; signal: 'SIGINT' | 'SIGTERM' }
  /** The journal has no end record: the run was killed (kill -9, out of memory) or crashed. */
  | { kind: 'killed'; error: null };
/** Defined with the codes and their precedence in exit-codes.ts. */
export type { ExitCode };

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

// ─── Drift tolerances, judge checks, prices (issue 6) ────────────────────────

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
}

/** `- judge:` expectation: a pinned model asked whether the answer is equivalent to the baseline or meets a rubric. */
export interface JudgeSpec {
  /** A concrete model id (never a ~alias). */
  model: string;
  /** Service to ask (a name under services:); default: the suite's. */
  service?: string;
  rubric?: string;
  equivalent_to_baseline?: boolean;
}

/** What a judge call answered, recorded on its CheckResult like any other call. */
export interface JudgeCall {
  /** The concrete model that judged (null when the call failed before a model answered). */
  model: string | null;
  usage: Usage | null;
  /**
   * pass | fail as the judge said; unparseable, error (the call failed) or skipped otherwise;
   * needs_call: a recheck could not keep a stored verdict and sends nothing (not evaluated).
   */
  verdict: string;
  reason: string;
}

/** USD per 1 million tokens for one model (the unit price lists use). */
export interface ModelPrice {
  prompt: number;
  completion: number;
}

/** `prices:` in the config, by concrete model id. */
export type Prices = Record<string, ModelPrice>;

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
