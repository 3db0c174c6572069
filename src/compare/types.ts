import type { Change } from '../core/words.js';
import type { CandidateVerdict } from './verdict.js';
import type { PairedTest } from '../stats/paired.js';
import type { CaseStatus } from '../core/words.js';
import type { Served, ToolTotals, Unrouted } from '../fold/totals.js';
import type { Trajectory } from '../record/fields/trajectory.js';

/** Bumped when a field of compare.json changes meaning or goes away (schemas/compare.schema.json). */
export const COMPARE_SCHEMA_VERSION = 1;

/** A case's samples in one run: how many passed of those sent. */
interface SampleTally {
  passed: number;
  sent: number;
}

/** What the candidates are compared with: the baseline their runs were diffed against, or a run. */
export interface ComparedReference {
  kind: 'baseline' | 'run';
  /** How the page and the tables name it: `baseline`, or the run's candidate or id. */
  label: string;
  /** The reference run's id (kind run). */
  run_id: string | null;
  /** The reference run's folder, as it was given (kind run). */
  dir: string | null;
}

/** One case in the reference: its verdict and answer where known. */
export interface ReferenceCell {
  /** Null: the reference says nothing of this case (a baseline without it, a run that did not plan it). */
  status: CaseStatus | null;
  samples: SampleTally | null;
  /** The answer the candidates' answers are diffed against; null when none is known. */
  content: string | null;
  /** A conversation's trajectory (its calls and the results given, by request), where the reference keeps one. */
  trajectory?: Trajectory;
}

/** One case under one candidate. */
export interface CandidateCell {
  change: Change;
  /** Null: the candidate did not run the case (skipped, or absent from its run). */
  status: CaseStatus | null;
  samples: SampleTally | null;
  error_kind: string | null;
  /** 0..1 similarity of the answer to the reference's, when the answers differ and both are text. */
  similarity: number | null;
  content: string | null;
  model: string | null;
  providers: string[];
  /** Median latency of the case's answered samples (ms). */
  latency_ms: number | null;
  /** A streamed case's median time to first token (ms); absent for a case not streamed. */
  ttft_ms?: number | null;
  /** USD over the case's samples; null when none reported a cost. */
  cost: number | null;
  /** Why the cell is what it is, one line (the failing check, the error, the drift). */
  note: string | null;
  /** A conversation's trajectory, its first sample's as report.json keeps it; absent for a single request. */
  trajectory?: Trajectory;
}

export interface CaseRow {
  /** `suite/case`. */
  id: string;
  suite: string;
  case: string;
  reference: ReferenceCell;
  /** In the order of `Comparison.candidates`. */
  cells: CandidateCell[];
}

/** A rate with its Wilson 95 % interval. */
interface RateWithInterval {
  passed: number;
  total: number;
  rate: number;
  low: number;
  high: number;
}

/**
 * One candidate over every case it ran. Computed once, by compareRuns: the console table,
 * compare.md, compare.json and compare.html only render it.
 */
export interface CandidateSummary {
  label: string;
  run_id: string;
  dir: string | null;
  model: string | null;
  provider: string | null;
  /** The candidate's own run: its exit code and how it ended (completed, paused, interrupted). */
  exit_code: number;
  run_status: string;
  /** Cases its run holds (skipped suites are not in it). */
  cases: number;
  passed: number;
  failed: number;
  errored: number;
  not_run: number;
  /** Cases of the comparison it did not run: its suite was skipped, or its run lacks it. */
  skipped: number;
  /** Passed of the cases that were answered or errored (not_run left out); null when none. */
  pass_rate: RateWithInterval | null;
  changes: Record<Change, number>;
  /** Over the cases that asked with tools; null when none did. */
  tools: ToolTotals | null;
  /** Error kinds over the samples, with counts. */
  error_kinds: Record<string, number>;
  tokens: { prompt: number; completion: number; total: number };
  cost: { total: number | null; cases_with_cost: number; per_1000_cases: number | null };
  /** Over the answered samples (nearest rank); null when none was timed. */
  latency_ms: { p50: number; p95: number; samples: number } | null;
  /** Time to first token over the streamed samples (nearest rank); null when none was streamed. */
  ttft_ms: { p50: number; p95: number; samples: number } | null;
  providers: Served[];
  models: Served[];
  /** Suites a provider candidate could not serve: the router's routing error on their cases. */
  unserved: Unrouted[];
  /**
   * On the cost-versus-pass-rate frontier: no other candidate is at least as cheap and at
   * least as good, and better in one. Null when its cost or pass rate is unknown.
   */
  pareto: boolean | null;
  /** The paired test against the reference, case by case (candidateVerdicts), and its one-line verdict. */
  verdict: PairedVerdict;
}

/**
 * A candidate's paired verdict as compare.json keeps it: CandidateVerdict (which says what
 * each field means) with its test's counts in place of the test, and no label (the
 * candidate has one).
 */
export type PairedVerdict = Pick<PairedTest, 'method' | 'cases' | 'regressions' | 'fixes'> &
  Omit<CandidateVerdict, 'label' | 'test'>;

/** A suite left out by some candidates, and why. */
export interface SkippedSuiteNote {
  suite: string;
  reason: string;
  /** Labels of the candidates that skipped it. */
  candidates: string[];
}

/**
 * A candidate of `run --models`/`--providers` whose run was not made: the command stopped
 * before it (a signal). `run --resume` of the comparison folder makes it.
 */
export interface CandidateNotRun {
  label: string;
  /** The id its run gets (the folder `run --resume` makes it in). */
  run_id: string;
  reason: string;
}

/** compare.json: the reference, every candidate, one row per case. */
export interface Comparison {
  schema_version: typeof COMPARE_SCHEMA_VERSION;
  reference: ComparedReference;
  candidates: CandidateSummary[];
  cases: CaseRow[];
  skipped_suites: SkippedSuiteNote[];
  /** Candidates of the command whose runs were not made (empty for `driftcheck compare`). */
  candidates_not_run: CandidateNotRun[];
}
