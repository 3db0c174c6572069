import { ADAPTIVE_SAMPLING } from '../stats/adaptive.js';
import type { Diagnostic, Suite, SuiteCase } from '../types.js';

/** Pass rates need tens of samples, not millions; past this a typo (1e9) would exhaust memory planning it. */
export const MAX_REPEAT = 1000;
/** Samples one suite may plan (cases × repeats): a night's run, with room to spare. */
export const MAX_SUITE_SAMPLES = 100_000;

/** A `repeat:` the schema accepts (a whole number ≥ 1) but no run could finish. */
export function repeatTooHigh(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > MAX_REPEAT;
}

/**
 * A suite whose cases × repeats pass MAX_SUITE_SAMPLES, written and generated cases
 * together (`auto` counts its cap); reported at the suite's name.
 */
export function sampleTotalProblem(
  suite: Pick<Suite, 'repeat' | 'location'>,
  cases: readonly Pick<SuiteCase, 'repeat'>[],
): Diagnostic | null {
  let samples = 0;
  for (const c of cases) {
    const n = [c.repeat, suite.repeat, 1].find(
      (r) => r === 'auto' || (typeof r === 'number' && Number.isInteger(r) && r >= 1),
    );
    samples += n === 'auto' ? ADAPTIVE_SAMPLING.cap : Math.min(n as number, MAX_REPEAT);
  }
  if (samples <= MAX_SUITE_SAMPLES) return null;
  return {
    ...suite.location,
    message: `the suite plans ${samples} samples (cases × repeats); at most ${MAX_SUITE_SAMPLES}`,
    hint: 'split it into several suites, or lower repeat',
  };
}
