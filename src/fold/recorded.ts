import type { CaseEntry } from '../stored/report/types.js';
import type { SampleResult } from '../stored/journal/records.js';
import type { Fold } from '../record/field.js';
import {
  RECORDED_FIELDS,
  type RecordedCase,
  type RecordedStats,
  type RecordedSuite,
} from '../record/registry.js';

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

/**
 * A suite's recorded lists gathered case by case, in whatever order its cases complete:
 * ties between values are broken by the plan position (`ordinal`) where each was first seen,
 * so the lists come out as if the cases had been read in plan order.
 */
export class RecordedLists {
  private readonly seen = new Map<string, Map<unknown, { count: number; ordinal: number; at: number }>>();

  add(entry: CaseEntry, ordinal: number): void {
    for (const [, f] of RECORDED_FIELDS) {
      for (const [name, { from }] of Object.entries(f.suite ?? {})) {
        let values = this.seen.get(name);
        if (!values) this.seen.set(name, (values = new Map()));
        ((entry as unknown as Record<string, unknown[]>)[from] ?? []).forEach((v, at) => {
          const known = values.get(v);
          if (!known) values.set(v, { count: 1, ordinal, at });
          else {
            known.count++;
            if (ordinal < known.ordinal || (ordinal === known.ordinal && at < known.at))
              Object.assign(known, { ordinal, at });
          }
        });
      }
    }
  }

  result(): RecordedSuite {
    const out: Record<string, unknown> = {};
    for (const [, f] of RECORDED_FIELDS) {
      for (const name of Object.keys(f.suite ?? {})) {
        out[name] = [...(this.seen.get(name) ?? [])]
          .sort(([, a], [, b]) => b.count - a.count || a.ordinal - b.ordinal || a.at - b.at)
          .map(([v]) => v);
      }
    }
    return out as RecordedSuite;
  }
}
