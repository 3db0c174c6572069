import { ADAPTIVE_SAMPLING } from '../stats/adaptive.js';
import type { Suite, SuiteCase } from './types.js';
import type { Diagnostic } from '../util/errors.js';

/** Pass rates need tens of samples, not millions; past this a typo (1e9) would exhaust memory planning it. */
export const MAX_REPEAT = 1000;
/** Samples one suite may plan (cases × repeats): a night's run, with room to spare. */
export const MAX_SUITE_SAMPLES = 100_000;

/** A `repeat:` the schema accepts (a whole number ≥ 1) but no run could finish. */
export function repeatTooHigh(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > MAX_REPEAT;
}

/**
 * The samples a suite's cases plan, counted as the cases stream by: what the limit holds
 * (MAX_SUITE_SAMPLES over written and generated cases together, `auto` counted at its cap,
 * reported at the suite's name), and what a plan starts with (null once a case is `auto`:
 * how many it takes is decided as it runs).
 */
export class SampleCount {
  /** For the limit: `auto` at its cap. */
  private atMost = 0;
  private planned: number | null = 0;

  constructor(private readonly suite: Pick<Suite, 'repeat' | 'location'>) {}

  add(c: Pick<SuiteCase, 'repeat'>): void {
    const n = [c.repeat, this.suite.repeat, 1].find(
      (r) => r === 'auto' || (typeof r === 'number' && Number.isInteger(r) && r >= 1),
    );
    const repeats = n === 'auto' ? ADAPTIVE_SAMPLING.cap : Math.min(n as number, MAX_REPEAT);
    this.atMost += repeats;
    this.planned = n === 'auto' || this.planned === null ? null : this.planned + repeats;
  }

  /** The samples planned, null when a case is `auto`. */
  get samples(): number | null {
    return this.planned;
  }

  /** The diagnostic when the cases so far pass the limit. */
  problem(): Diagnostic | null {
    if (this.atMost <= MAX_SUITE_SAMPLES) return null;
    return {
      ...this.suite.location,
      message: `the suite plans ${this.atMost} samples (cases × repeats); at most ${MAX_SUITE_SAMPLES}`,
      hint: 'split it into several suites, or lower repeat',
    };
  }
}
