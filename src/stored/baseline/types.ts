import type { CheckType } from '../../checks/registry.js';
import type { ErrorKind, Usage } from '../../core/answer.js';
import type { Provenance } from '../report/types.js';
import type { RecordedBaseline } from '../../record/registry.js';
import type { LatencySketch } from '../../stats/sketch.js';

export type { LatencySketch } from '../../stats/sketch.js';
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
  /** A repeated tool loop's samples that finished within max_steps (`pass`) of those sent (see WithinMaxSteps). */
  within_max_steps?: { pass: number; total: number };
  /** The answered samples' latency, for latency_changed (absent: none answered, or an older baseline). */
  latency_ms?: LatencySketch;
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
