import { candidateLabel, notNightly, provenanceOf } from '../fold/provenance.js';
import type { Provenance } from '../stored/report/types.js';
import { sha256 } from '../util/sha256.js';
import type {
  HistoryCaseInput,
  HistoryCaseStatus,
  HistoryLoop,
  HistoryProvenance,
  HistoryRunInput,
} from '../stored/history/types.js';

/** A report's run as the history reads it; what the run was is absent in older reports. */
type RunLike = {
  id: string;
  started_at: string;
  finished_at: string;
  exit_code: number;
  status: string;
  sim?: boolean;
  candidate_model?: string | null;
  candidate_provider?: string | null;
  shard?: { index: number; total: number } | null;
  provenance?: Provenance;
};

/**
 * The parts of a schema-2 report.json (one entry per case, samples aggregated) the history
 * reads. Declared here, structurally, so the adapter does not depend on which report types
 * this build carries; a schema-2 `Report` satisfies it.
 */
export interface ReportV2Like {
  schema_version: 2;
  run: RunLike;
  suites: { suite: string; models: string[]; providers?: string[]; baseline: string | null }[];
  cases: {
    suite: string;
    case: string;
    status: HistoryCaseStatus;
    samples: { sent: number; passed: number };
    model: string | null;
    models?: string[];
    provider?: string | null;
    providers?: string[];
    error_kinds?: Record<string, number | undefined>;
    drift: { kind: string }[];
    stats: {
      prompt_tokens: number;
      completion_tokens: number;
      total_tokens: number;
      cost: number | null;
      with_usage: number;
      latency_ms: { p50: number; p95: number } | null;
      /** A conversation's requests over its samples (absent in reports written before it). */
      steps?: number;
    };
    /** Absent in reports written before tool calls were recorded; null for a case without tools. */
    tool_use?: { answered: number; triggered: number; valid: number } | null;
    /** A conversation's first trajectory; absent or null for a single request (and before it was recorded). */
    trajectory?: { steps: number; calls: { tool: string }[] } | null;
    /** A streamed case's timings; absent or null for a case not streamed (and before they were recorded). */
    streaming?: { ttft_ms: { p50: number } | null } | null;
  }[];
}

/** One schema-2 case entry as the history's compact case line. */
export function historyCase(c: ReportV2Like['cases'][number]): HistoryCaseInput {
  return {
    suite: c.suite,
    case: c.case,
    status: c.status,
    samples: c.samples.sent,
    passes: c.samples.passed,
    error_kinds: Object.entries(c.error_kinds ?? {})
      .filter(([, n]) => (n ?? 0) > 0)
      .map(([kind]) => kind)
      .sort(),
    drift_kinds: [...new Set(c.drift.map((d) => d.kind))].sort(),
    // Most frequent first in the report: the one that served most samples.
    model: c.models?.[0] ?? c.model,
    provider: c.providers?.[0] ?? c.provider ?? null,
    tokens:
      c.stats.with_usage > 0
        ? {
            prompt: c.stats.prompt_tokens,
            completion: c.stats.completion_tokens,
            total: c.stats.total_tokens,
          }
        : null,
    cost: c.stats.cost,
    latency_p50_ms: c.stats.latency_ms?.p50 ?? null,
    latency_p95_ms: c.stats.latency_ms?.p95 ?? null,
    // The counts only: the rates follow from them, and the distinct calls stay in the report.
    tools: c.tool_use
      ? { answered: c.tool_use.answered, triggered: c.tool_use.triggered, valid: c.tool_use.valid }
      : null,
    ...(c.trajectory ? { loop: historyLoop(c, c.trajectory) } : {}),
    // A streamed case's line alone keeps its time to first token.
    ...(c.streaming?.ttft_ms ? { ttft_p50_ms: c.streaming.ttft_ms.p50 } : {}),
  };
}

/**
 * A conversation's night: its requests over its samples, the samples that finished within
 * max_steps (all but those that ended `max_steps_reached`), and its first trajectory's digest.
 */
function historyLoop(
  c: ReportV2Like['cases'][number],
  trajectory: NonNullable<ReportV2Like['cases'][number]['trajectory']>,
): HistoryLoop {
  const sent = c.samples.sent;
  const over = c.error_kinds?.max_steps_reached ?? 0;
  return {
    // A report written before stats.steps holds its first sample's alone.
    steps: c.stats.steps ?? trajectory.steps * sent,
    within: Math.max(0, sent - over),
    trajectory: trajectoryDigest(trajectory.calls.map((call) => call.tool)),
  };
}

/** The digest of a sequence of tools the history keeps: 8 hex characters of its sha256 (`no call` has one too). */
export function trajectoryDigest(tools: readonly string[]): string {
  return sha256(tools.join('\n')).slice(0, 8);
}

/** The run line of either schema: its identity and exit, and per suite the models and providers that served. */
export function historyRun(
  run: RunLike,
  suites: readonly { suite: string; models: string[]; providers?: string[] }[],
): HistoryRunInput {
  const provenance = historyProvenance(run);
  return {
    run_id: run.id,
    started_at: run.started_at,
    finished_at: run.finished_at,
    exit_code: run.exit_code,
    status: run.status,
    ...(provenance ? { provenance } : {}),
    // Schema 1 records no provider: its suites come with none.
    suites: suites.map((s) => ({
      suite: s.suite,
      models: [...s.models],
      providers: [...(s.providers ?? [])],
      baseline_source_run: null,
    })),
  };
}

/** What the run was, when it was not a nightly, complete run of the real services. */
function historyProvenance(run: RunLike): HistoryProvenance | undefined {
  const facts = {
    sim: run.sim ?? false,
    candidate_model: run.candidate_model ?? null,
    candidate_provider: run.candidate_provider ?? null,
    shard: run.shard ?? null,
  };
  const stated = { ...facts, ...(run.provenance ? { provenance: run.provenance } : {}) };
  if (notNightly(stated).length === 0) return undefined;
  const p = provenanceOf(stated);
  return {
    candidate: p.kind === 'candidate' ? candidateLabel(facts) : null,
    sim: p.sim,
    shard: p.shard,
    partial: !p.complete && !p.shard,
    forced: false,
  };
}
