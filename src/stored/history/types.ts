/**
 * The nightly history's own types. They are what the history needs per run and per case,
 * independent of report.json's shape: adapters (`fromReportV1`, the lead's v2 adapter) map
 * a report onto them, so the store outlives report schema changes.
 */

export type HistoryCaseStatus = 'pass' | 'fail' | 'error' | 'not_run';

interface HistoryTokens {
  prompt: number;
  completion: number;
  total: number;
}

/** One case of one run, samples aggregated. */
export interface HistoryCaseInput {
  suite: string;
  case: string;
  status: HistoryCaseStatus;
  samples: number;
  passes: number;
  /** Distinct error kinds among the samples (`timeout`, `rate_limited`, …). */
  error_kinds: string[];
  /** Distinct drift kinds against the baseline (`regressed`, `model_changed`, …). */
  drift_kinds: string[];
  /** Concrete model that answered (the most frequent one), when any did. */
  model: string | null;
  /** Upstream provider behind a routing service, when the service said. */
  provider: string | null;
  /** Tokens summed over the samples that reported usage. */
  tokens: HistoryTokens | null;
  /** USD summed over the samples that reported a cost. */
  cost: number | null;
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
  /** Tool-call counts, for a case whose requests declared tools or whose answers made calls; null otherwise. */
  tools: HistoryToolCounts | null;
  /**
   * A conversation's night (a tool loop, scripted turns); null or absent for a case of
   * single requests (and in lines written before it was kept).
   */
  loop?: HistoryLoop | null;
  /**
   * A streamed case's median time to first token that night (ms; its samples' p50); null or
   * absent for a case not streamed (and in lines written before it was kept).
   */
  ttft_p50_ms?: number | null;
}

/**
 * A conversation's night, as counts a reader can test: `steps` requests over its samples
 * (steps per conversation = steps ÷ samples), `within` samples that finished within
 * max_steps (the rate = within ÷ samples), and `trajectory`, a short digest of its first
 * sample's tool sequence (another digest: another sequence of tools than that night's).
 */
export interface HistoryLoop {
  steps: number;
  within: number;
  trajectory: string;
}

/**
 * A case's tool calls over one night, as counts a reader can test (not only rates):
 * `answered` samples that asked with tools (or made calls), `triggered` of them finished
 * with tool calls, `valid` of those made only valid calls. Trigger rate = triggered ÷
 * answered; valid-call rate = valid ÷ triggered (none when nothing triggered).
 */
export interface HistoryToolCounts {
  answered: number;
  triggered: number;
  valid: number;
}

export interface HistorySuiteInput {
  suite: string;
  /** Concrete models that answered in this run. */
  models: string[];
  providers: string[];
  /** The run the suite's baseline was accepted from, when it had one. */
  baseline_source_run: string | null;
}

export interface GitInfo {
  commit: string | null;
  branch: string | null;
}

/** One run, as the history records it. */
export interface HistoryRunInput {
  run_id: string;
  started_at: string;
  finished_at: string;
  exit_code: number;
  /** `completed` · `paused` · `interrupted` (free text: a newer driftcheck may add values). */
  status: string;
  git?: GitInfo;
  /** What the run was, when it was not a nightly, complete run of the real services. Absent: it was. */
  provenance?: HistoryProvenance;
  suites: HistorySuiteInput[];
}

/** A night that is not a plain one: the trend page marks the forced ones. */
export interface HistoryProvenance {
  /** The candidate, when the run was one: its `--model`, or `provider x` for `--providers` (candidateLabel). */
  candidate: string | null;
  sim: boolean;
  /** One shard alone. */
  shard: { index: number; total: number } | null;
  /** Not every case of its suites (a filter, or a merge with shards missing). */
  partial: boolean;
  /** Appended despite what it was (`history add --force`, `run --history-force`). */
  forced: boolean;
}

/** `baseline_accepted`: from this run on, a suite's detector starts over. */
export interface BaselineAcceptedInput {
  suite: string;
  /** The run the baseline was accepted from. */
  source_run: string;
  /** When it was accepted (ISO time). */
  at: string;
}

/** A run read back from the store, with its cases. */
export interface HistoryRun extends HistoryRunInput {
  cases: HistoryCaseInput[];
}

/** A line the reader skipped, for a reviewer to see (never fatal). */
export interface HistoryProblem {
  file: string;
  /** 1-based. */
  line: number;
  reason: string;
}

/** Everything read from a history folder, runs in time order. */
export interface History {
  runs: HistoryRun[];
  baselines: BaselineAcceptedInput[];
  problems: HistoryProblem[];
  /** How many month files readHistory read: 0 for a folder that does not exist or holds none. */
  months?: number;
}
