import type { DriftSeverity } from './drift-kinds.js';

/**
 * How much a drift kind weighs: a row of the one table of drift kinds (DRIFT_SEVERITY in
 * drift-kinds.ts), filled by the run's own kinds and by each recorded field's `drift.kinds`.
 */
export interface DriftKindRow {
  /** On a nightly run. */
  readonly severity: DriftSeverity;
  /** On a candidate run (`--model`, `--models`, `--providers`), where what served changed by design. */
  readonly candidate?: DriftSeverity;
  /** For a kind that measures how far something moved: beyond its threshold (an answer less similar than it). */
  readonly beyond?: DriftSeverity;
  /** When the change is for the better (answers came faster). */
  readonly better?: DriftSeverity;
}

/** What a drift found, as far as its weight depends on it (see DriftKindRow). */
export interface DriftCircumstance {
  candidate?: boolean;
  beyond?: boolean;
  better?: boolean;
}

/** The severity a row gives a drift: its candidate weight on a candidate run, then its better or beyond one, else its own. */
export function severityIn(row: DriftKindRow, how: DriftCircumstance = {}): DriftSeverity {
  if (how.candidate && row.candidate) return row.candidate;
  if (how.better && row.better) return row.better;
  if (how.beyond && row.beyond) return row.beyond;
  return row.severity;
}
