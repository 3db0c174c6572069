import { percent } from '../util/numbers.js';
import { formatUsd } from '../util/numbers.js';
/** Token counts this small swing by a few tokens between identical answers; never flag below it. */
export const MIN_TOKEN_CHANGE = 8;

/** `drift.usage`'s default: a relative change of ±25 % in tokens or cost is news. */
export const DEFAULT_USAGE_TOLERANCE = 0.25;

/** The usage numbers a comparison looks at; null or absent means "not reported". */
export interface UsageFigures {
  completion_tokens?: number | null;
  total_tokens?: number | null;
  cost?: number | null;
}

export type UsageLimits = { completion_tokens: number; total_tokens: number; cost: number };

const TOKEN_FIELDS = ['completion_tokens', 'total_tokens'] as const;

const known = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The usage fields that moved beyond their relative tolerance, as `field from → to (±p%)`.
 * Tokens must also move by MIN_TOKEN_CHANGE; cost by at least what MIN_TOKEN_CHANGE tokens
 * cost at the baseline's average price per token, so a cost change is never flagged when
 * the tokens behind it were noise, yet a price change (another model) still shows.
 */
export function usageChanges(baseline: UsageFigures, current: UsageFigures, limits: UsageLimits): string[] {
  const changes: string[] = [];
  for (const field of TOKEN_FIELDS) {
    const change = countChange(field, baseline[field], current[field], limits[field]);
    if (change !== null) changes.push(change);
  }
  const [from, to] = [baseline.cost, current.cost];
  if (known(from) && known(to)) {
    const tokens = baseline.total_tokens;
    const floor = known(tokens) && tokens > 0 ? (from / tokens) * MIN_TOKEN_CHANGE : 0;
    if (beyond(from, to, limits.cost, floor)) {
      changes.push(`cost ${formatUsd(from)} → ${formatUsd(to)} (${percent(from, to)})`);
    }
  }
  return changes;
}

/** Moved by more than `tolerance` (relative) and at least `floor`; from 0, any move past the floor. */
function beyond(from: number, to: number, tolerance: number, floor: number): boolean {
  const delta = Math.abs(to - from);
  if (delta === 0 || delta < floor) return false;
  return from === 0 || delta / from > tolerance;
}

/**
 * A token count (or another count as noisy, such as characters of reasoning) that moved
 * beyond its relative tolerance and by at least MIN_TOKEN_CHANGE, as `label from → to (±p%)`;
 * null when it did not, or either side is unknown. What usage_changed and reasoning drift say.
 */
export function countChange(
  label: string,
  from: number | null | undefined,
  to: number | null | undefined,
  tolerance: number,
  /** The least move that counts, in the count's own unit (default MIN_TOKEN_CHANGE tokens). */
  floor = MIN_TOKEN_CHANGE,
): string | null {
  if (!known(from) || !known(to) || !beyond(from, to, tolerance, floor)) return null;
  return `${label} ${round(from)} → ${round(to)} (${percent(from, to)})`;
}

/** Suite sums of repeated samples can be fractional; one decimal is plenty in a message. */
function round(value: number): number {
  return Math.round(value * 10) / 10;
}
