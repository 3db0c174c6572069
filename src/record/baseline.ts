import type { BaselineCase, CaseEntry, Drift } from '../types.js';
import { RECORDED_FIELDS } from './registry.js';

/** JSON Schema types of a recorded value, as `typeof` says them. */
const TYPEOF: Record<string, string> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
};

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

/**
 * What is wrong with a baseline case's recorded fields, or null: each is absent, null or of
 * its field's type (a hand-edited `"provider": 5` would otherwise reach the drift rules).
 */
export function recordedBaselineProblem(c: Readonly<Record<string, unknown>>): string | null {
  for (const [name, f] of RECORDED_FIELDS) {
    const value = c[name];
    if (!f.baseline || value == null) continue;
    const type = TYPEOF[String(f.schema.type)];
    if (type !== undefined && typeof value !== type)
      return `has a ${name} that is neither a ${f.schema.type} nor null`;
  }
  return null;
}
