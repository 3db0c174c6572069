import { boschlooOneSided, type ExactTest } from './boschloo.js';
import { passRate, type Samples } from './samples.js';

export interface CompareOptions {
  /** Significance level of the one-sided test (default 0.05). */
  alpha?: number;
}

export interface RateComparison {
  /** The drop is significant at `alpha`: report `pass_rate_dropped`. */
  dropped: boolean;
  /** One-sided p-value for "the current pass rate is below the baseline's". */
  p: number;
  baselineRate: number;
  currentRate: number;
  /**
   * The baseline itself had mixed outcomes: one failing sample now is not a regression
   * of its own; only `dropped` says the case got worse.
   */
  flaky: boolean;
  method: ExactTest;
}

/** Default significance level of every drift test. */
export const DEFAULT_ALPHA = 0.05;

/** Throws on a level no configuration should allow. */
export function checkAlpha(alpha: number): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  return alpha;
}

/**
 * Compares one case's repeated samples with its baseline's, for fixed repeat counts (an
 * adaptive run decides with `nextSampleDecision` instead).
 */
export function comparePassRates(
  baseline: Samples,
  current: Samples,
  options: CompareOptions = {},
): RateComparison {
  const alpha = checkAlpha(options.alpha ?? DEFAULT_ALPHA);
  const { p, method } = boschlooOneSided(baseline, current);
  return {
    dropped: p <= alpha,
    p,
    baselineRate: passRate(baseline),
    currentRate: passRate(current),
    flaky: baseline.pass > 0 && baseline.pass < baseline.total,
    method,
  };
}
