import { percent } from '../../util/numbers.js';
import { formatUsd } from '../../util/numbers.js';
/** Token counts this small swing by a few tokens between identical answers; never flag below it. */
const MIN_TOKEN_CHANGE = 8;

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
  const beyond = (from: number, to: number, tolerance: number, floor: number): boolean => {
    const delta = Math.abs(to - from);
    if (delta === 0 || delta < floor) return false;
    return from === 0 || delta / from > tolerance;
  };
  for (const field of TOKEN_FIELDS) {
    const from = baseline[field];
    const to = current[field];
    if (!known(from) || !known(to)) continue;
    if (beyond(from, to, limits[field], MIN_TOKEN_CHANGE)) {
      changes.push(`${field} ${round(from)} → ${round(to)} (${percent(from, to)})`);
    }
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

/** Suite sums of repeated samples can be fractional; one decimal is plenty in a message. */
function round(value: number): number {
  return Math.round(value * 10) / 10;
}
