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

/** The recorded fields' drift decided over a suite's cases together (see RecordedField.drift.suite). */
export interface RecordedSuiteDrift {
  /** Each case's drift by case id, in registry order. */
  caseDrift: Map<string, Drift[]>;
  suiteDrift: Drift[];
}

/**
 * Drift of the recorded fields that is judged over a suite's cases at once, for the cases
 * whose answers are compared with their baseline's (those `diffCase` compares what served).
 */
export function recordedSuiteDrift(
  cases: readonly { case: string; current: CaseEntry; baseline: BaselineCase }[],
  options: { alpha: number },
): RecordedSuiteDrift {
  const caseDrift = new Map<string, Drift[]>();
  const suiteDrift: Drift[] = [];
  for (const [name, f] of RECORDED_FIELDS) {
    if (!f.drift?.suite) continue;
    const judged = f.drift.suite(
      cases.map((c) => ({
        case: c.case,
        baseline: (c.baseline as unknown as Record<string, unknown>)[name],
        current: c.current as unknown as Readonly<Record<string, unknown>>,
      })),
      options,
    );
    // Each field reports only its declared kinds, which DriftKind includes.
    for (const [id, list] of judged.cases)
      caseDrift.set(id, [...(caseDrift.get(id) ?? []), ...(list as Drift[])]);
    suiteDrift.push(...(judged.suite as Drift[]));
  }
  return { caseDrift, suiteDrift };
}
