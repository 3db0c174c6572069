import { RECORDED_DRIFT_KINDS, type RecordedDriftKind } from './registry.js';

/** Drift kinds of the run itself (verdicts, answers, usage, cases); recorded fields add theirs. */
const CORE_DRIFT_KINDS = [
  'regressed',
  'fixed',
  'model_changed',
  'finish_reason_changed',
  'usage_changed',
  'content_changed',
  'new_error',
  'new_case',
  'missing_case',
  'pass_rate_dropped',
  'error_changed',
  'refused',
  'pass_rate_trending_down',
  'weak_baseline',
  'latency_changed',
] as const;

export type DriftKind = (typeof CORE_DRIFT_KINDS)[number] | RecordedDriftKind;

/** Every drift kind: what the report schema's enum lists. */
export const DRIFT_KINDS: readonly DriftKind[] = [
  ...CORE_DRIFT_KINDS,
  ...(RECORDED_DRIFT_KINDS as RecordedDriftKind[]),
];

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
