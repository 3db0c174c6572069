import { hypergeometricPmf } from './distributions.js';
import { assertSamples, type Samples } from './samples.js';

/**
 * Exact stratified test (the exact form of the one-sided Cochran–Mantel–Haenszel test)
 * that current pass rates are lower than the baselines' across many cases at once.
 * Each case is its own stratum, so cases with different pass rates or sample counts
 * are never pooled into one misleading table. Conditional on every case's margins, the
 * total of current passes is a sum of independent hypergeometrics; the p-value is the
 * chance of a total this low or lower.
 */
export function stratifiedOneSided(cases: { baseline: Samples; current: Samples }[]): number {
  let dist = new Float64Array([1]);
  let offset = 0;
  let observed = 0;
  for (const { baseline, current } of cases) {
    assertSamples(baseline, 'baseline');
    assertSamples(current, 'current');
    if (baseline.total === 0 || current.total === 0) continue;
    const { low, pmf } = hypergeometricPmf(
      baseline.total + current.total,
      baseline.pass + current.pass,
      current.total,
    );
    const next = new Float64Array(dist.length + pmf.length - 1);
    for (let i = 0; i < dist.length; i++) {
      const d = dist[i]!;
      if (d === 0) continue;
      for (let j = 0; j < pmf.length; j++) next[i + j]! += d * pmf[j]!;
    }
    dist = next;
    offset += low;
    observed += current.pass;
  }
  let p = 0;
  for (let i = 0; i <= observed - offset && i < dist.length; i++) p += dist[i]!;
  return Math.min(1, p);
}
