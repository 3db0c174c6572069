/**
 * Slow drift across nights: false alarms and detection delay of the nightly CUSUM
 * (src/stats/cusum.ts) at 10 samples a night. Part of `npm run bench:verdicts`.
 * Seeded: the same figures on every run.
 */
import { cusumStart, cusumStep, type CusumOptions, CUSUM_DEFAULTS } from '../src/stats/cusum.js';
import { cusumArl, cusumThreshold, nightLlr } from '../src/stats/cusum-arl.js';
import { createRng, wilsonInterval } from '../src/stats/index.js';
import { printTable } from './table.js';

const SAMPLES = 10;

function binomial(n: number, p: number, random: () => number): number {
  let x = 0;
  for (let i = 0; i < n; i++) if (random() < p) x++;
  return x;
}

export interface TrendRow {
  scenario: string;
  measure: string;
  value: string;
  detail: string;
}

/** False alarms per case-night over `nights` nights from a reset, restarting after each alarm. */
function falseAlarms(rate: number, nights: number, trials: number, seed: number, options: CusumOptions) {
  const random = createRng(seed);
  let alarms = 0;
  for (let t = 0; t < trials; t++) {
    let state = cusumStart();
    for (let k = 0; k < nights; k++) {
      const step = cusumStep(state, binomial(SAMPLES, rate, random), SAMPLES, options);
      if (step.alarm) alarms++;
      state = step.state;
    }
  }
  return { alarms, caseNights: trials * nights };
}

/** `stable` nights at `before`, then `after` until flagged (or 60 nights). */
function delays(
  before: number,
  after: number,
  stable: number,
  trials: number,
  seed: number,
  options: CusumOptions,
) {
  const random = createRng(seed);
  const out: number[] = [];
  let early = 0;
  let namedWithin2 = 0;
  for (let t = 0; t < trials; t++) {
    let state = cusumStart();
    let alarmedEarly = false;
    for (let k = 0; k < stable; k++) {
      const step = cusumStep(state, binomial(SAMPLES, before, random), SAMPLES, options);
      if (step.alarm) alarmedEarly = true;
      state = step.state;
    }
    if (alarmedEarly) early++;
    let night = 1;
    for (; night <= 60; night++) {
      const step = cusumStep(state, binomial(SAMPLES, after, random), SAMPLES, options);
      state = step.state;
      if (step.alarm) {
        if (Math.abs(step.alarm.began - stable) <= 2) namedWithin2++;
        break;
      }
    }
    out.push(night);
  }
  out.sort((a, b) => a - b);
  return {
    within14: out.filter((d) => d <= 14).length / trials,
    within7: out.filter((d) => d <= 7).length / trials,
    median: out[Math.floor(trials / 2)]!,
    early: early / trials,
    named: namedWithin2 / Math.max(1, out.filter((d) => d <= 60).length),
  };
}

/** The reference: a CUSUM that knows both rates exactly, threshold for 1 alarm per 1,000 nights. */
function knownRates(trials: number, seed: number) {
  const h = cusumThreshold(0.95, 0.85, SAMPLES, 1000);
  const random = createRng(seed);
  const out: number[] = [];
  for (let t = 0; t < trials; t++) {
    let s = 0;
    let night = 1;
    for (; night <= 60; night++) {
      s = Math.max(0, s + nightLlr(binomial(SAMPLES, 0.85, random), SAMPLES, 0.95, 0.85));
      if (s > h) break;
    }
    out.push(night);
  }
  out.sort((a, b) => a - b);
  return {
    h,
    arl: cusumArl(0.95, 0.85, SAMPLES, h),
    within14: out.filter((d) => d <= 14).length / trials,
    median: out[Math.floor(trials / 2)]!,
  };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const perMille = (x: number): string => `${(1000 * x).toFixed(2)}/1000`;

export interface TrendTarget {
  target: string;
  value: number;
  ok: boolean;
}

/** Every row and target of the nightly detector. */
export function trendBench(): { rows: TrendRow[]; targets: TrendTarget[] } {
  const rows: TrendRow[] = [];
  const known = knownRates(20_000, 0x7e1);
  rows.push({
    scenario: 'drop 95% → 85%, both rates known (reference)',
    measure: 'flagged ≤ 14 nights',
    value: pct(known.within14),
    detail: `median ${known.median} nights; h = ${known.h.toFixed(2)}, in-control ARL ${known.arl.toFixed(0)} nights`,
  });
  let worstFalse = 0;
  for (const [i, rate] of [0.7, 0.8, 0.9, 0.95, 0.99].entries()) {
    const { alarms, caseNights } = falseAlarms(rate, 365, 1000, 0xfa17 + i, {});
    const { low, high } = wilsonInterval(alarms, caseNights);
    worstFalse = Math.max(worstFalse, alarms / caseNights);
    rows.push({
      scenario: `no drift at ${pct(rate)}, 365 nights from a reset`,
      measure: 'false alarms per case-night',
      value: perMille(alarms / caseNights),
      detail: `95% CI ${perMille(low)}–${perMille(high)}; ${caseNights} case-nights`,
    });
  }
  const detection: Record<number, ReturnType<typeof delays>> = {};
  for (const stable of [30, 90]) {
    const d = delays(0.95, 0.85, stable, 5000, 0xd0 + stable, {});
    detection[stable] = d;
    rows.push({
      scenario: `drop 95% → 85% after ${stable} stable nights (rate estimated)`,
      measure: 'flagged ≤ 14 nights',
      value: pct(d.within14),
      detail: `median ${d.median} nights; change night named ±2: ${pct(d.named)}; alarmed before the drop: ${pct(d.early)}`,
    });
  }
  // Suite level: 100 cases. Per-case control gives ~100× the per-case rate per suite-night;
  // suite control divides the per-case rate by 100 (arl × 100) and pays in delay.
  const suiteCases = 100;
  const perCase = worstFalse;
  rows.push({
    scenario: `suite of ${suiteCases} cases, per-case threshold (default arl ${CUSUM_DEFAULTS.arl})`,
    measure: 'suite-nights with ≥ 1 false alarm',
    value: pct(1 - (1 - perCase) ** suiteCases),
    detail: `from the worst per-case rate ${perMille(perCase)}`,
  });
  const suiteOptions = { arl: CUSUM_DEFAULTS.arl * suiteCases };
  const suiteFalse = falseAlarms(0.95, 365, 1000, 0x5a17, suiteOptions);
  const suiteRate = suiteFalse.alarms / suiteFalse.caseNights;
  const suiteDelay = delays(0.95, 0.85, 90, 3000, 0x5d, suiteOptions);
  rows.push({
    scenario: `suite of ${suiteCases} cases, suite-wide threshold (arl ${suiteOptions.arl})`,
    measure: 'suite-nights with ≥ 1 false alarm',
    value: pct(1 - (1 - suiteRate) ** suiteCases),
    detail: `per case ${perMille(suiteRate)} at 95%; drop flagged ≤ 14 nights ${pct(suiteDelay.within14)}, median ${suiteDelay.median}`,
  });
  const d90 = detection[90]!;
  const targets: TrendTarget[] = [
    {
      target: 'nightly: false alarms ≤ 1 per 1,000 case-nights (worst rate)',
      value: worstFalse,
      ok: worstFalse <= 0.001,
    },
    {
      target: 'nightly: 95% → 85% flagged ≤ 14 nights in ≥ 90% (after 90 stable nights)',
      value: d90.within14,
      ok: d90.within14 >= 0.9,
    },
    // Median ≤ 7 nights ⇔ at least half the trials flagged within 7 nights.
    {
      target: `nightly: median delay ≤ 7 nights (is ${d90.median}; share flagged ≤ 7 nights ≥ 50%)`,
      value: d90.within7,
      ok: d90.within7 >= 0.5,
    },
  ];
  return { rows, targets };
}

export function printTrendRows(rows: TrendRow[]): void {
  const header = ['scenario (10 samples a night)', 'measure', 'value', 'detail'];
  const cells = rows.map((r) => [r.scenario, r.measure, r.value, r.detail]);
  printTable(header, cells);
}
