import { normalQuantile } from './normal.js';

export interface RateInterval {
  low: number;
  high: number;
  /** Observed pass rate; NaN when total is 0. */
  rate: number;
}

/**
 * Wilson score interval for a pass rate, for the report's "pass rate 37/40 (80%–97%)".
 * Unlike the plain normal interval it stays inside [0, 1] and is sensible at 0/n and n/n.
 */
export function wilsonInterval(pass: number, total: number, confidence = 0.95): RateInterval {
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  if (total === 0) return { low: 0, high: 1, rate: Number.NaN };
  const rate = pass / total;
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const z2 = z * z;
  const denominator = 1 + z2 / total;
  const centre = (rate + z2 / (2 * total)) / denominator;
  const half = (z / denominator) * Math.sqrt((rate * (1 - rate)) / total + z2 / (4 * total * total));
  // Exact ends at 0/n and n/n: rounding must not put the bound a hair off 0 or 1.
  return {
    low: pass === 0 ? 0 : Math.max(0, centre - half),
    high: pass === total ? 1 : Math.min(1, centre + half),
    rate,
  };
}
