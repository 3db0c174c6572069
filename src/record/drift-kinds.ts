import { RECORDED_DRIFT_KINDS, type RecordedDriftKind } from './registry.js';
import { type DriftCircumstance, type DriftKindRow, severityIn } from './severity.js';

/**
 * Drift kinds of the run itself (verdicts, answers, usage, cases), each with its row: the
 * severity it has by default, and where another applies. Recorded fields add theirs.
 */
const CORE_DRIFT_KINDS = {
  regressed: { severity: 'fail' },
  fixed: { severity: 'info' },
  model_changed: { severity: 'warn', candidate: 'info' },
  finish_reason_changed: { severity: 'warn' },
  usage_changed: { severity: 'warn' },
  // Info while the answer stays as similar as the threshold says, warn below it.
  content_changed: { severity: 'info', beyond: 'warn' },
  new_error: { severity: 'fail' },
  new_case: { severity: 'info' },
  missing_case: { severity: 'warn' },
  pass_rate_dropped: { severity: 'fail' },
  // A repeated tool loop's rate of ending with a text answer within max_steps dropped: tested as pass rates are.
  within_max_steps_dropped: { severity: 'fail' },
  error_changed: { severity: 'fail' },
  refused: { severity: 'fail' },
  pass_rate_trending_down: { severity: 'warn' },
  weak_baseline: { severity: 'info' },
  // A slowdown warns (or as a suite's `drift.latency.severity` says); faster answers, and
  // another model's speed in a candidate run, are information.
  latency_changed: { severity: 'warn', candidate: 'info', better: 'info' },
} as const satisfies Record<string, DriftKindRow>;

export type DriftKind = keyof typeof CORE_DRIFT_KINDS | RecordedDriftKind;

/**
 * The one table of drift kinds and what each weighs by default: the run's own, then the
 * recorded fields' (src/record/fields/, each field's `drift.kinds`). README's list of drift
 * kinds reads the same (test/record/drift-kinds.test.ts holds them together).
 */
export const DRIFT_SEVERITY: Readonly<Record<DriftKind, DriftKindRow>> = {
  ...CORE_DRIFT_KINDS,
  ...RECORDED_DRIFT_KINDS,
};

/** Every drift kind: what the report schema's enum lists. */
export const DRIFT_KINDS = Object.keys(DRIFT_SEVERITY) as readonly DriftKind[];

/** The severity of a drift of `kind`, by its row of the table and what was found (DriftCircumstance). */
export function severityOf(kind: DriftKind, how?: DriftCircumstance): DriftSeverity {
  return severityIn(DRIFT_SEVERITY[kind], how);
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
