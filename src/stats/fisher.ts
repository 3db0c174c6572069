import { hypergeometricPmf } from './distributions.js';
import { assertSamples, type Samples } from './samples.js';

/**
 * One-sided Fisher exact test, for "did the current pass rate drop below the baseline's?"
 * Conditional on the total passes, the current passes are hypergeometric under "no
 * change"; the p-value is the chance of seeing this few current passes or fewer.
 * Returns 1 when either side has no samples (nothing to compare).
 */
export function fisherOneSided(baseline: Samples, current: Samples): number {
  assertSamples(baseline, 'baseline');
  assertSamples(current, 'current');
  if (baseline.total === 0 || current.total === 0) return 1;
  const { low, pmf } = hypergeometricPmf(
    baseline.total + current.total,
    baseline.pass + current.pass,
    current.total,
  );
  let p = 0;
  for (let x = low; x <= current.pass; x++) p += pmf[x - low]!;
  return Math.min(1, p);
}
