/**
 * Paired candidate verdicts (issue 21): a candidate 5 points worse than the reference
 * (90 % → 85 % mean pass rate) over 200 single-sample cases, compared by the product's own
 * `candidateVerdicts` (src/compare/verdict.ts: McNemar mid-p per candidate, Holm
 * over the candidates), and three candidates as good as the reference for false alarms.
 *
 * The model of cases, stated because detection depends on it. Over independent cases a
 * 5-point drop on 200 single samples cannot be told from noise; what pairing exploits is
 * that cases differ in difficulty far more than two models differ on a case. Each case
 * has a difficulty d ~ N(0, 1); a model of ability a passes it, on any one sample, with
 * probability Φ((a − d)/τ): the same d for the reference and every candidate (their
 * answers are correlated only through it; given d they are independent draws), τ the
 * sampling noise of one answer. a is set so the mean pass rate over cases is 90 % for the
 * reference (85 % for the worse candidate): E Φ((a − d)/τ) = Φ(a/√(1 + τ²)). τ decides how
 * many cases are flaky (pass probability between 5 % and 95 %): τ = 0.2 makes 11 % of the
 * cases flaky, our reading of how often a hosted model answers one prompt both ways across
 * runs (published repeat-run studies range from a few % for large models at temperature 0
 * to 20–50 % for small ones); τ = 0.1 and 0.3 are printed beside it, as the verdict's power
 * rests on that figure. Part of `npm run bench:verdicts`. Seeded.
 */
import { candidateVerdicts, type VerdictCase } from '../src/compare/verdict.js';
import { createRng, wilsonInterval } from '../src/stats/index.js';
import { normalQuantile, normalUpperTail } from '../src/stats/normal.js';
import { printTable } from './table.js';

const CASES = 200;
const TRIALS = 4_000;
const REFERENCE_RATE = 0.9;
const WORSE_RATE = 0.85;
const NOISES = [0.2, 0.1, 0.3] as const;
const ALPHA = 0.05;

export interface PairedRow {
  scenario: string;
  tau: number;
  /** Share of cases whose pass probability lies between 5 % and 95 % under the reference. */
  flaky: number;
  measure: 'detection' | 'false alarms';
  rate: number;
  interval: [number, number];
  trials: number;
}

export interface PairedTarget {
  target: string;
  value: number;
  ok: boolean;
}

const phi = (z: number): number => 1 - normalUpperTail(z);

/** A model's ability whose mean pass rate over N(0, 1) difficulties is `rate`. */
const abilityFor = (rate: number, tau: number): number => normalQuantile(rate) * Math.sqrt(1 + tau * tau);

/** A standard normal draw (also the time-to-first-token rows', bench/verdicts-stream.ts). */
export function normal(random: () => number): number {
  // Box–Muller; 1 − u keeps the logarithm finite.
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** One single-sample answer per case for a model of this ability. */
function answers(
  difficulty: readonly number[],
  ability: number,
  tau: number,
  random: () => number,
): VerdictCase[] {
  return difficulty.map((d, i) => ({
    id: `s/c${i}`,
    samples: { pass: random() < phi((ability - d) / tau) ? 1 : 0, total: 1 },
    cost: null,
    latency_ms: [],
  }));
}

/** Share of trials where any of the given candidates (by index) is called significantly worse. */
function flaggedShare(tau: number, rates: readonly number[], watch: readonly number[], seed: number): number {
  const random = createRng(seed);
  const reference = abilityFor(REFERENCE_RATE, tau);
  const abilities = rates.map((r) => abilityFor(r, tau));
  let flagged = 0;
  for (let t = 0; t < TRIALS; t++) {
    const difficulty = Array.from({ length: CASES }, () => normal(random));
    const verdicts = candidateVerdicts(
      answers(difficulty, reference, tau, random),
      abilities.map((a, i) => ({ label: `c${i}`, cases: answers(difficulty, a, tau, random) })),
      { alpha: ALPHA },
    );
    if (watch.some((i) => verdicts[i]!.worse)) flagged++;
  }
  return flagged / TRIALS;
}

function flakyShare(tau: number): number {
  const a = abilityFor(REFERENCE_RATE, tau);
  const z = normalQuantile(0.95) * tau;
  return phi(a + z) - phi(a - z);
}

export function pairedBench(): { rows: PairedRow[]; targets: PairedTarget[] } {
  const rows: PairedRow[] = [];
  NOISES.forEach((tau, n) => {
    const row = (scenario: string, measure: PairedRow['measure'], rate: number): PairedRow => {
      const { low, high } = wilsonInterval(Math.round(rate * TRIALS), TRIALS);
      return { scenario, tau, flaky: flakyShare(tau), measure, rate, interval: [low, high], trials: TRIALS };
    };
    const seed = 0x9a1d + 10 * n;
    rows.push(
      row(
        `1 of 3 candidates 90% → 85%, ${CASES} cases × 1 sample`,
        'detection',
        flaggedShare(tau, [WORSE_RATE, REFERENCE_RATE, REFERENCE_RATE], [0], seed),
      ),
      row(
        `1 candidate alone 90% → 85%, ${CASES} cases × 1 sample`,
        'detection',
        flaggedShare(tau, [WORSE_RATE], [0], seed + 1),
      ),
      row(
        `3 candidates as good (90%), any called worse`,
        'false alarms',
        flaggedShare(tau, [REFERENCE_RATE, REFERENCE_RATE, REFERENCE_RATE], [0, 1, 2], seed + 2),
      ),
    );
  });
  const at = (scenario: string) => rows.find((r) => r.tau === NOISES[0] && r.scenario.startsWith(scenario))!;
  const detection = at('1 of 3').rate;
  const falseAlarms = Math.max(...rows.filter((r) => r.measure === 'false alarms').map((r) => r.rate));
  return {
    rows,
    targets: [
      {
        target: `paired verdict: 1 of 3 candidates 5 points worse over ${CASES} single-sample cases flagged ≥ 80% (τ = ${NOISES[0]})`,
        value: detection,
        ok: detection >= 0.8,
      },
      {
        target: 'paired verdict: false alarms ≤ 5% across 3 candidates as good as the reference (worst τ)',
        value: falseAlarms,
        ok: falseAlarms <= 0.05,
      },
    ],
  };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

export function printPairedRows(rows: PairedRow[]): void {
  printTable(
    [
      'paired verdict (McNemar, Holm over candidates)',
      'τ',
      'flaky cases',
      'measure',
      'rate',
      '95% CI',
      'trials',
    ],
    rows.map((r) => [
      r.scenario,
      String(r.tau),
      pct(r.flaky),
      r.measure,
      pct(r.rate),
      `${pct(r.interval[0])}–${pct(r.interval[1])}`,
      String(r.trials),
    ]),
  );
}
