import { checkAlpha, DEFAULT_ALPHA } from './compare.js';
import { fisherOneSided } from './fisher.js';
import { assertSamples, type Samples } from './samples.js';
import { isFutile, sequentialDesign } from './sequential-design.js';

export interface SamplingOptions {
  /** Significance level of the whole sequential test (default 0.05). */
  alpha?: number;
  /** The cap: never more current samples than this. */
  maxSamples: number;
  /** First look, and the spacing of later looks (default 10, or the cap when smaller). */
  minSamples?: number;
}

export type SampleDecision = 'continue' | 'drift' | 'no_drift';

/**
 * The current sample counts at which `nextSampleDecision` decides: minSamples, its
 * multiples, and the cap. A runner samples up to the next look, then asks.
 */
export function sampleLooks(options: SamplingOptions): number[] {
  const max = options.maxSamples;
  if (!(Number.isInteger(max) && max >= 1))
    throw new RangeError(`maxSamples must be a positive integer, got ${max}`);
  const step = Math.min(options.minSamples ?? 10, max);
  if (!(Number.isInteger(step) && step >= 1)) throw new RangeError(`minSamples must be a positive integer`);
  const looks: number[] = [];
  for (let n = step; n < max; n += step) looks.push(n);
  looks.push(max);
  return looks;
}

/** How many current samples a case should have before the next decision. */
export function nextLook(current: Samples, options: SamplingOptions): number {
  const looks = sampleLooks(options);
  return looks.find((n) => n > current.total) ?? looks[looks.length - 1]!;
}

/**
 * Adaptive sampling for one case (`repeat: auto`): after each look, stop with 'drift'
 * when the drop is already significant, stop with 'no_drift' when the case is clearly
 * fine or the cap is reached, else 'continue'. The levels are calibrated so the
 * chance of a false 'drift' stays ≤ alpha for every true pass rate; 'no_drift' is
 * binding (stop sampling), and counts between looks get 'continue'.
 */
export function nextSampleDecision(
  baseline: Samples,
  current: Samples,
  options: SamplingOptions,
): SampleDecision {
  assertSamples(baseline, 'baseline');
  assertSamples(current, 'current');
  const alpha = checkAlpha(options.alpha ?? DEFAULT_ALPHA);
  const looks = sampleLooks(options);
  const cap = looks[looks.length - 1]!;
  // No baseline samples: nothing to test. The run's samples may become the baseline, so a
  // case whose samples disagree gets the full cap (a good estimate of a flaky rate); one
  // whose samples all agree at a look stops there — 40 of 40 says no more than 10 of 10.
  if (baseline.total === 0) {
    if (current.total >= cap) return 'no_drift';
    const unanimous = current.pass === 0 || current.pass === current.total;
    return looks.includes(current.total) && unanimous ? 'no_drift' : 'continue';
  }
  const k = current.total >= cap ? looks.length - 1 : looks.indexOf(current.total);
  if (k < 0) return 'continue';
  const design = sequentialDesign(baseline.total, looks, alpha);
  const p = fisherOneSided(baseline, current);
  if (p <= design.levels[k]!) return 'drift';
  if (k === looks.length - 1) return 'no_drift';
  return isFutile(k, p, baseline.pass, baseline.total, current.pass, current.total) ? 'no_drift' : 'continue';
}
