/**
 * Slow drift across nights: a one-sided Bernoulli CUSUM over a case's nightly pass counts
 * (Page 1954), testing "the pass rate fell by `drop`" against the rate the case held so far.
 *
 * The baseline rate is not known; it is estimated from the nights before the current
 * excursion (the run of nights since the statistic last stood at 0), so the drift being
 * tested never dilutes its own reference. The estimate is taken one standard error low
 * (`margin`): an over-estimated rate is what turns noise into alarms, and the bound shrinks
 * as history accumulates. No alarm before `warmup` reference samples. The threshold is the
 * one whose in-control run length is `arl` nights (Markov-chain ARL), so the false-alarm
 * rate is set per case-night; for a suite of N cases pass `arl` × N for the same rate per
 * suite-night. The night the change began is the excursion's first night.
 */
import { cusumThreshold, nightLlr } from './cusum-arl.js';

export interface CusumOptions {
  /** Absolute fall in pass rate the test is tuned to (default 0.10: 95 % → 85 %). */
  drop?: number;
  /** In-control average run length in nights: 1 false alarm per `arl` case-nights (default 1,200). */
  arl?: number;
  /** How many standard errors the estimated baseline rate is lowered by (default 1). */
  margin?: number;
  /** Reference samples required before any alarm (default 100: ten nights of 10). */
  warmup?: number;
}

export const CUSUM_DEFAULTS: Required<CusumOptions> = { drop: 0.1, arl: 1200, margin: 1, warmup: 100 };

/** The detector's state after some nights: plain data, so it can be stored or replayed. */
export interface CusumState {
  /** Nights seen since the last reset. */
  nights: number;
  statistic: number;
  /** Passes and samples of the in-control nights (the reference). */
  reference: { passes: number; samples: number };
  /** The current excursion: nights since the statistic last stood at 0. */
  excursion: { start: number; passes: number; samples: number };
}

export interface CusumAlarm {
  /** Index (since reset) of the night the change began: the excursion's first night. */
  began: number;
  /** Index of the night the alarm was raised. */
  raised: number;
  /** Estimated pass rate before the change (the reference) and since it. */
  before: number;
  after: number;
}

export function cusumStart(): CusumState {
  return {
    nights: 0,
    statistic: 0,
    reference: { passes: 0, samples: 0 },
    excursion: { start: 0, passes: 0, samples: 0 },
  };
}

/** The rates the night is tested with: the reference's lower bound and that minus `drop`. */
export function testedRates(state: CusumState, options: Required<CusumOptions>): { p0: number; p1: number } {
  const { passes, samples } = state.reference;
  const estimate = (passes + 0.5) / (samples + 1);
  const se = Math.sqrt((estimate * (1 - estimate)) / (samples + 1));
  // A grid of 1/200 keeps the memoised thresholds few; clamped where the test stays defined.
  const p0 =
    Math.round(Math.min(0.99, Math.max(0.05 + options.drop, estimate - options.margin * se)) * 200) / 200;
  return { p0, p1: Math.round((p0 - options.drop) * 200) / 200 };
}

/**
 * Feeds one night (pass count out of samples) to the detector. Pure: returns the next
 * state and the alarm, if this night raised one. After an alarm the statistic restarts.
 */
export function cusumStep(
  state: CusumState,
  passes: number,
  samples: number,
  options: CusumOptions = {},
): { state: CusumState; alarm: CusumAlarm | null } {
  const o = { ...CUSUM_DEFAULTS, ...options };
  const index = state.nights;
  if (samples === 0) return { state: { ...state, nights: index + 1 }, alarm: null };
  const { p0, p1 } = testedRates(state, o);
  const statistic = state.statistic + nightLlr(passes, samples, p0, p1);
  if (statistic <= 0) {
    // Back in control: the excursion and tonight join the reference.
    const reference = {
      passes: state.reference.passes + state.excursion.passes + passes,
      samples: state.reference.samples + state.excursion.samples + samples,
    };
    return {
      state: {
        nights: index + 1,
        statistic: 0,
        reference,
        excursion: { start: index + 1, passes: 0, samples: 0 },
      },
      alarm: null,
    };
  }
  const excursion = {
    start: state.statistic === 0 ? index : state.excursion.start,
    passes: state.excursion.passes + passes,
    samples: state.excursion.samples + samples,
  };
  const next: CusumState = { nights: index + 1, statistic, reference: state.reference, excursion };
  if (state.reference.samples < o.warmup || statistic <= cusumThreshold(p0, p1, samples, o.arl))
    return { state: next, alarm: null };
  const alarm: CusumAlarm = {
    began: excursion.start,
    raised: index,
    before: state.reference.passes / Math.max(1, state.reference.samples),
    after: excursion.passes / excursion.samples,
  };
  return {
    state: { ...next, statistic: 0, excursion: { start: index + 1, passes: 0, samples: 0 } },
    alarm,
  };
}

/** Runs the detector over a case's nights since its last reset; the first alarm, if any. */
export function detectTrend(
  nights: readonly { passes: number; samples: number }[],
  options: CusumOptions = {},
): CusumAlarm | null {
  return runCusum(nights, options).alarm;
}

/**
 * The detector over the nights until its first alarm, and where it stands then (or after
 * the last night): what the trend page shows of a case that raised none.
 */
export function runCusum(
  nights: readonly { passes: number; samples: number }[],
  options: CusumOptions = {},
): { alarm: CusumAlarm | null; state: CusumState } {
  let state = cusumStart();
  for (const night of nights) {
    const step = cusumStep(state, night.passes, night.samples, options);
    if (step.alarm) return { alarm: step.alarm, state: step.state };
    state = step.state;
  }
  return { alarm: null, state };
}
