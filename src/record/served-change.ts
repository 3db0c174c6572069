import type { Drift, DriftSeverity } from './drift-kinds.js';

/** A drift of kind K (DriftKind is derived from the fields' kinds, so they cannot name it). */
export type FieldDrift<K extends string = string> = Omit<Drift, 'kind'> & { kind: K };

/** How a change of what served the answers weighs in a nightly run and in a candidate run. */
export type ServedSeverity = Record<'nightly' | 'candidate', DriftSeverity>;

/**
 * Drift when the answers were served by something other than the baseline's: every value
 * the samples gave counts, so one sample of ten served elsewhere is seen. A nightly run
 * asked for the baseline's model, so another model, provider or backend is news; a
 * `--model`/`--models` candidate changes them by design, so there it is information.
 */
export function servedChange<K extends string>(input: {
  /** A literal, not DriftKind: the recorded fields' kinds are part of DriftKind. */
  kind: K;
  label: string;
  severity: ServedSeverity;
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
      severity: input.severity[candidate ? 'candidate' : 'nightly'],
      baseline: was,
      current: now.length === 1 ? now[0] : now,
      message: `${input.label} changed: ${was} → ${now.join(', ')}${candidate ? ' (candidate run)' : input.note}`,
    },
  ];
}
