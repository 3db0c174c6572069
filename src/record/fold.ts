import type { CaseEntry, SampleResult } from '../types.js';
import type { Fold } from './field.js';
import { RECORDED_FIELDS, type RecordedCase, type RecordedStats, type RecordedSuite } from './registry.js';
import { Tally } from '../fold/tally.js';

interface Placed {
  field: string;
  at: 'case' | 'stats';
  name: string;
  fold: Fold<unknown, unknown>;
  /** Its place in a case's state, when it keeps one. */
  slot: number | null;
}

/** Every fold of every field, flattened once; those that keep state get a slot in a case's state array. */
const FOLDS: readonly Placed[] = (() => {
  let slots = 0;
  return RECORDED_FIELDS.flatMap(([field, f]) =>
    (['case', 'stats'] as const).flatMap((at) =>
      Object.entries(f[at] ?? {}).map(([name, fold]) => ({
        field,
        at,
        name,
        fold,
        slot: fold.state ? slots++ : null,
      })),
    ),
  );
})();
const STATEFUL = FOLDS.filter((p) => p.slot !== null);

/** A new case's fold state for the recorded fields (one slot per fold that keeps state). */
export function startRecorded(): unknown[] {
  return STATEFUL.map((p) => p.fold.state!.start());
}

/** Folds one sent sample's recorded fields into its case's state. */
export function addRecorded(state: unknown[], sample: SampleResult): void {
  const values = sample as unknown as Record<string, unknown>;
  for (let i = 0; i < STATEFUL.length; i++) {
    const p = STATEFUL[i]!;
    const value = values[p.field];
    if (value != null) state[i] = p.fold.state!.add(state[i], value);
  }
}

function outputs(
  at: 'case' | 'stats',
  state: readonly unknown[],
  first: SampleResult | null,
  failure: SampleResult | null,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const of = (s: SampleResult | null, field: string) =>
    ((s as unknown as Record<string, unknown> | null)?.[field] ?? null) as unknown;
  for (const p of FOLDS) {
    if (p.at !== at) continue;
    const kept = { first: of(first, p.field), failure: of(failure, p.field) };
    out[p.name] = p.fold.result(p.slot === null ? null : state[p.slot], kept);
  }
  return out;
}

/** The case entry's recorded fields, from its state and the samples it kept whole. */
export function recordedCase(
  state: readonly unknown[],
  first: SampleResult | null,
  failure: SampleResult | null,
): RecordedCase {
  return outputs('case', state, first, failure) as RecordedCase;
}

/** The recorded fields of the case entry's `stats`. */
export function recordedStats(state: readonly unknown[]): RecordedStats {
  return outputs('stats', state, null, null) as RecordedStats;
}

/** The suite's recorded lists: every value of a case list, most cases first. */
export function recordedSuite(cases: readonly CaseEntry[]): RecordedSuite {
  const out: Record<string, unknown> = {};
  for (const [, f] of RECORDED_FIELDS) {
    for (const [name, { from }] of Object.entries(f.suite ?? {})) {
      const tally = new Tally<unknown>();
      for (const c of cases)
        for (const v of (c as unknown as Record<string, unknown[]>)[from] ?? []) tally.add(v);
      out[name] = tally.byFrequency();
    }
  }
  return out as RecordedSuite;
}
