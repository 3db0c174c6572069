import { checkAlpha, comparePassRates, DEFAULT_ALPHA } from './compare.js';
import { holmAdjust } from './holm.js';
import type { Samples } from './samples.js';
import { stratifiedOneSided } from './stratified.js';

interface CaseVerdict {
  /** The case's own one-sided p-value (Boschloo, or Fisher for very large counts). */
  p: number;
  /** Holm-adjusted over the suite's cases. */
  adjustedP: number;
  dropped: boolean;
}

export interface SuiteVerdict {
  /** The suite as a whole dropped: its stratified test is significant. */
  dropped: boolean;
  /** p-value of the suite-level test. */
  p: number;
  method: string;
  /** One entry per input case, in input order. */
  perCase: CaseVerdict[];
}

/**
 * One verdict for a suite of repeated cases. The suite-level test is the exact
 * stratified test, which adds up small drops in many cases (20 cases each 95% → 85%)
 * that no single case shows. Per-case flags need both that suite-level rejection and a
 * Holm-adjusted p ≤ alpha — a gatekeeper: under no drift the chance of any flag at all
 * (suite or case) is that of the suite test, ≤ alpha, and the case flags alone keep
 * Holm's family-wise guarantee. A single case is tested on its own.
 */
export function suiteVerdict(
  cases: { baseline: Samples; current: Samples }[],
  options: { alpha?: number } = {},
): SuiteVerdict {
  const alpha = checkAlpha(options.alpha ?? DEFAULT_ALPHA);
  const comparisons = cases.map((c) => comparePassRates(c.baseline, c.current, { alpha }));
  const adjusted = holmAdjust(comparisons.map((c) => c.p));
  const single = comparisons.length === 1 ? comparisons[0] : undefined;
  const p = single ? single.p : comparisons.length === 0 ? 1 : stratifiedOneSided(cases);
  const method = single
    ? `${single.method} exact one-sided`
    : 'stratified exact one-sided (Cochran–Mantel–Haenszel), Holm-adjusted cases';
  const dropped = p <= alpha;
  return {
    dropped,
    p,
    method,
    perCase: comparisons.map((c, i) => ({
      p: c.p,
      adjustedP: adjusted[i]!,
      dropped: dropped && adjusted[i]! <= alpha,
    })),
  };
}
