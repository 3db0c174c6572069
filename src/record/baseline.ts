import type { BaselineCase, CaseEntry, Drift } from '../types.js';
import { RECORDED_FIELDS } from './registry.js';

/** What a baseline case stores of the recorded fields: the case's value, when it has one. */
export function recordedBaseline(entry: CaseEntry, into: BaselineCase): void {
  const values = entry as unknown as Record<string, unknown>;
  const target = into as unknown as Record<string, unknown>;
  for (const [name, f] of RECORDED_FIELDS) {
    const value = f.baseline ? values[f.baseline.from] : undefined;
    if (value != null && value !== '') target[name] = value;
  }
}

/** Drift of the recorded fields against the baseline's stored values, in registry order. */
export function recordedDrift(
  current: Readonly<Record<string, unknown>>,
  baseline: BaselineCase,
  candidate: boolean,
): Drift[] {
  const stored = baseline as unknown as Record<string, unknown>;
  // Each field reports only its declared kinds, which DriftKind includes.
  return RECORDED_FIELDS.flatMap(([name, f]) =>
    f.drift ? (f.drift.diff({ baseline: stored[name], current, candidate }) as Drift[]) : [],
  );
}
