import type { DriftInput } from './field.js';
import type { FieldDrift } from './served-change.js';
import type { DriftKindRow } from './severity.js';
import { countChange, DEFAULT_USAGE_TOLERANCE } from './usage-change.js';

/**
 * `reasoning_changed`: a reasoning model thought much more or less than in the baseline — its
 * reasoning tokens or the length of its reasoning text moved as usage_changed's tokens must
 * (beyond `drift.usage.completion_tokens`, ±25 % by default, and past a floor). A warning:
 * the answer may read the same while it costs twice as much, or comes from a shallower think.
 */
export const REASONING_KINDS = { reasoning_changed: { severity: 'warn' } } as const satisfies Record<
  string,
  DriftKindRow
>;

/** The reasoning drift of one count of a case (`current`, the first sample's) against the baseline's. */
export function reasoningDrift(
  label: string,
  input: DriftInput<number>,
  current: unknown,
  /** The least move that counts, in the count's unit. */
  floor?: number,
): FieldDrift<'reasoning_changed'>[] {
  const now = typeof current === 'number' ? current : null;
  const tolerance = input.tolerance?.usage.completion_tokens ?? DEFAULT_USAGE_TOLERANCE;
  const change = countChange(label, input.baseline, now, tolerance, floor);
  if (change === null) return [];
  return [
    {
      kind: 'reasoning_changed',
      severity: REASONING_KINDS.reasoning_changed.severity,
      baseline: input.baseline,
      current: now,
      message: `reasoning changed: ${change}`,
    },
  ];
}
