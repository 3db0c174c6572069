import type { BaselineCase } from './types.js';
import type { CaseEntry } from '../report/types.js';
import type { Drift } from '../../record/drift-kinds.js';
import { RECORDED_FIELDS } from '../../record/registry.js';
import type { RecordedTolerance } from '../../record/field.js';

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
  tolerance?: RecordedTolerance,
): Drift[] {
  const stored = baseline as unknown as Record<string, unknown>;
  const more = tolerance ? { tolerance } : {};
  // Each field reports only its declared kinds, which DriftKind includes.
  return RECORDED_FIELDS.flatMap(([name, f]) =>
    f.drift?.diff ? (f.drift.diff({ baseline: stored[name], current, candidate, ...more }) as Drift[]) : [],
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
  cases: readonly {
    case: string;
    /** The case entry, or at least its suiteRuleOutputs. */
    current: Readonly<Record<string, unknown>>;
    /** The baseline case's suiteRuleStored. */
    baseline: Readonly<Record<string, unknown>>;
    /** The case's `drift:` tolerances, resolved. */
    tolerance: RecordedTolerance;
  }[],
  /** `tolerance`: the suite's, for what is judged of the suite as a whole. */
  options: { alpha: number; candidate?: boolean; tolerance: RecordedTolerance },
): RecordedSuiteDrift {
  const caseDrift = new Map<string, Drift[]>();
  const suiteDrift: Drift[] = [];
  for (const [name, f] of RECORDED_FIELDS) {
    if (!f.drift?.suite) continue;
    const judged = f.drift.suite(
      cases.map((c) => ({
        case: c.case,
        baseline: c.baseline[name],
        current: c.current as unknown as Readonly<Record<string, unknown>>,
        tolerance: c.tolerance,
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

/** Fields whose drift is judged over a suite's cases (RecordedField.drift.suite). */
const SUITE_RULED = RECORDED_FIELDS.filter(([, f]) => f.drift?.suite !== undefined);

/**
 * What the suite-wide rules read of a case entry: the case outputs of the fields that have
 * one (tool use counts), so a fold keeps these few values per case, not the entry.
 */
export function suiteRuleOutputs(entry: CaseEntry): Readonly<Record<string, unknown>> {
  const values = entry as unknown as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const [, f] of SUITE_RULED)
    for (const name of Object.keys(f.case ?? {})) if (values[name] != null) (out ??= {})[name] = values[name];
  // Most cases of most suites record none of them: one shared empty object, not one per case.
  return out ?? NONE_RECORDED;
}

/** What suiteRuleOutputs and suiteRuleStored give for a case with none of those values: one shared object. */
export const NONE_RECORDED: Readonly<Record<string, unknown>> = Object.freeze({});

/** What the suite-wide rules read of a baseline case: the stored values of the fields that have one. */
export function suiteRuleStored(base: Partial<BaselineCase>): Readonly<Record<string, unknown>> {
  // A recorded field is a baseline case's member by its name (RECORDED_FIELDS).
  const stored = base as Readonly<Record<string, unknown>>;
  let out: Record<string, unknown> | null = null;
  for (const [name] of SUITE_RULED) if (stored[name] !== undefined) (out ??= {})[name] = stored[name];
  return out ?? NONE_RECORDED;
}
