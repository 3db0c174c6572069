import type { Prices } from './catalog.js';
import type { Usage } from './answer.js';

/**
 * A sum of costs rounded to 1e-10 USD: float sums of many small prices carry noise past that,
 * and rounding keeps reports and their diffs stable.
 */
export const roundCost = (value: number): number => Math.round(value * 1e10) / 1e10;

const TOKENS_PER_PRICE_UNIT = 1_000_000;

/**
 * USD cost of one call: the service's own `usage.cost` when it reported one (the router
 * does), else prompt and completion tokens priced from the config's `prices:` for the
 * concrete model that answered. Null when neither is possible.
 */
export function costOf(usage: Usage | null, model: string | null, prices: Prices | undefined): number | null {
  if (usage === null) return null;
  if (typeof usage.cost === 'number' && Number.isFinite(usage.cost)) return usage.cost;
  if (model === null || prices === undefined || !Object.hasOwn(prices, model)) return null;
  const price = prices[model]!;
  const { prompt_tokens: prompt, completion_tokens: completion } = usage;
  if (prompt === null || completion === null) return null;
  const raw = (price.prompt * prompt + price.completion * completion) / TOKENS_PER_PRICE_UNIT;
  // Rounded like the simulator's costs, so float noise never shows up as cost drift.
  return Math.round(raw * 1e10) / 1e10;
}

/** The usage with `cost` filled from `prices:` where the service gave none; unchanged otherwise. */
export function withCost(
  usage: Usage | null,
  model: string | null,
  prices: Prices | undefined,
): Usage | null {
  if (usage === null || (typeof usage.cost === 'number' && Number.isFinite(usage.cost))) return usage;
  const cost = costOf(usage, model, prices);
  if (cost === null) return usage;
  const { prompt_tokens, completion_tokens, total_tokens } = usage;
  return { prompt_tokens, completion_tokens, total_tokens, cost };
}
