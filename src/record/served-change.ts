import type { Drift } from './drift-kinds.js';
import type { DriftInput } from './field.js';
import { type DriftKindRow, severityIn } from './severity.js';

/** A drift of kind K (DriftKind is derived from the fields' kinds, so they cannot name it). */
export type FieldDrift<K extends string = string> = Omit<Drift, 'kind'> & { kind: K };

/**
 * Drift when the answers were served by something other than the baseline's: every value
 * the samples gave counts, so one sample of ten served elsewhere is seen. A nightly run
 * asked for the baseline's model, so another model, provider or backend is news; a
 * `--model`/`--models` candidate changes them by design, so there it weighs as the row's
 * `candidate` says.
 */
export function servedChange<K extends string>(input: {
  /** A literal, not DriftKind: the recorded fields' kinds are part of DriftKind. */
  kind: K;
  /** Its row of the drift kinds' table. */
  row: DriftKindRow;
  label: string;
  seen: readonly string[];
  was: string | null | undefined;
  candidate: boolean;
  /** What to do about it, appended on nightly runs. */
  note: string;
}): FieldDrift<K>[] {
  const { was, candidate } = input;
  const now = was == null ? [] : input.seen.filter((v) => v !== was);
  if (now.length === 0) return [];
  return [
    {
      kind: input.kind,
      severity: severityIn(input.row, { candidate }),
      baseline: was,
      current: now.length === 1 ? now[0] : now,
      message: `${input.label} changed: ${was} → ${now.join(', ')}${candidate ? ' (candidate run)' : input.note}`,
    },
  ];
}

/**
 * The drift of a recorded field that says what served an answer (a provider, a backend, a
 * tier): one kind, `K`, weighing `row`, when a value the case's samples gave (its case
 * entry's list `seen`) is not the baseline's stored one.
 */
export function servedDrift<const K extends string>(input: {
  kind: K;
  row: DriftKindRow;
  /** How messages name the field. */
  label: string;
  /** The case-entry list of every value the samples gave. */
  seen: string;
  /** What to do about it, appended on nightly runs. */
  note: string;
}): { kinds: Record<K, DriftKindRow>; diff(input: DriftInput<string>): FieldDrift<K>[] } {
  const { kind, row, label, note } = input;
  return {
    kinds: { [kind]: row } as Record<K, DriftKindRow>,
    diff: ({ baseline, current, candidate }) =>
      servedChange({
        kind,
        row,
        label,
        seen: current[input.seen] as string[],
        was: baseline,
        candidate,
        note,
      }),
  };
}
