import { logChoose } from './log-factorial.js';

/** Probabilities of 0..n passes out of n independent samples that each pass with `rate`. */
export function binomialPmf(n: number, rate: number): Float64Array {
  const pmf = new Float64Array(n + 1);
  if (rate <= 0) pmf[0] = 1;
  else if (rate >= 1) pmf[n] = 1;
  else {
    const lp = Math.log(rate);
    const lq = Math.log1p(-rate);
    for (let k = 0; k <= n; k++) pmf[k] = Math.exp(logChoose(n, k) + k * lp + (n - k) * lq);
  }
  return pmf;
}

/**
 * Hypergeometric probabilities: `draws` items taken from `population` items of which
 * `successes` are successes. Returns the pmf over its support, starting at `low`.
 */
export function hypergeometricPmf(
  population: number,
  successes: number,
  draws: number,
): { low: number; pmf: Float64Array } {
  const low = Math.max(0, draws - (population - successes));
  const high = Math.min(draws, successes);
  const pmf = new Float64Array(Math.max(0, high - low + 1));
  const denominator = logChoose(population, draws);
  for (let x = low; x <= high; x++) {
    pmf[x - low] = Math.exp(
      logChoose(successes, x) + logChoose(population - successes, draws - x) - denominator,
    );
  }
  return { low, pmf };
}
