/**
 * Tool loops' rate of finishing within max_steps (issue 35): a provider whose agent finishes
 * a 3-step task (look the order up, check the policy, answer) 95 % of the time, and 80 % of
 * the time tonight — the rest loop on a call until max_steps — over a suite of 20 tool-loop
 * cases sampled `repeat: n` against baselines of n samples; and the same provider unchanged,
 * at 95 % and at a standing 80 %.
 *
 * Each trial runs the product's own decision over the suite, `analyseRate` with
 * WITHIN_MAX_STEPS (src/fold/pass-rates.ts, what the suite fold calls for every repeated tool
 * loop): the exact stratified test over the 20 cases, one-sided at α = 0.05, gating
 * Holm-adjusted per-case flags, as pass rates are judged. A sample finishes with the row's
 * probability, independently (what the rate reads of a sample is whether it ended with a text
 * answer). A suite is "flagged" when it gets within_max_steps_dropped at all — the suite-level
 * finding or any case's — so a false alarm is a night with any such finding although the
 * provider did not change. Part of `npm run bench:verdicts`. Seeded.
 */
import { analyseRate, type CaseSamples, WITHIN_MAX_STEPS } from '../src/fold/pass-rates.js';
import { bernoulli, createRng, type Samples, wilsonInterval } from '../src/stats/index.js';
import { printTable } from './table.js';

const CASES = 20;
const TRIALS = 5_000;
const SAMPLES = [10, 20] as const;

interface Scenario {
  name: string;
  drift: boolean;
  /** [baseline, tonight] probability that a sample finishes within max_steps, in every case. */
  rates: [number, number];
}

const SCENARIOS: Scenario[] = [
  { name: `${CASES} tool loops finishing a 3-step task 95% → 80%`, drift: true, rates: [0.95, 0.8] },
  { name: `no change, ${CASES} tool loops finishing 95%`, drift: false, rates: [0.95, 0.95] },
  // A provider that always looped 1 time in 5 and still does: the test's size at a lower rate.
  { name: `no change, ${CASES} tool loops finishing 80%`, drift: false, rates: [0.8, 0.8] },
];

export interface LoopRow {
  scenario: string;
  drift: boolean;
  samples: number;
  /** Share of trials with within_max_steps_dropped anywhere: the suite-level finding or any case's. */
  suiteFlagged: number;
  interval: [number, number];
  /** Share of trials where the suite-level (stratified) test fired. */
  pooledFlagged: number;
  /** Share of cases flagged (Holm-adjusted), over every case of every trial. */
  caseFlagged: number;
  trials: number;
}

export interface LoopTarget {
  target: string;
  value: number;
  ok: boolean;
}

function draw(finishes: () => boolean, n: number): Samples {
  let pass = 0;
  for (let i = 0; i < n; i++) if (finishes()) pass++;
  return { pass, total: n };
}

function runScenario(scenario: Scenario, samples: number, seed: number): LoopRow {
  const random = createRng(seed);
  const [was, now] = scenario.rates;
  const base = bernoulli(was, random);
  const tonight = bernoulli(now, random);
  let suites = 0;
  let pooled = 0;
  let cases = 0;
  for (let t = 0; t < TRIALS; t++) {
    const suite: CaseSamples[] = Array.from({ length: CASES }, (_, c) => ({
      case: `c${c}`,
      samples: draw(tonight, samples),
      baseline: draw(base, samples),
      adaptive: false,
    }));
    const judged = analyseRate(WITHIN_MAX_STEPS, suite);
    const suiteFinding = judged.suiteDrift.some((d) => d.kind === WITHIN_MAX_STEPS.kind);
    cases += judged.caseDrift.size;
    if (suiteFinding) pooled++;
    if (suiteFinding || judged.caseDrift.size > 0) suites++;
  }
  const { low, high } = wilsonInterval(suites, TRIALS);
  return {
    scenario: scenario.name,
    drift: scenario.drift,
    samples,
    suiteFlagged: suites / TRIALS,
    interval: [low, high],
    pooledFlagged: pooled / TRIALS,
    caseFlagged: cases / (TRIALS * CASES),
    trials: TRIALS,
  };
}

/** Every row and target of the tool loops' rate of finishing within max_steps. */
export function loopBench(): { rows: LoopRow[]; targets: LoopTarget[] } {
  const rows = SCENARIOS.flatMap((s, i) => SAMPLES.map((n, j) => runScenario(s, n, 0x1005 + 10 * i + j)));
  const at = (i: number, n: number) =>
    rows.find((r) => r.scenario === SCENARIOS[i]!.name && r.samples === n)!;
  const caught = at(0, 20);
  const quiet = at(1, 20);
  const worst = Math.max(...rows.filter((r) => !r.drift).map((r) => r.suiteFlagged));
  return {
    rows,
    targets: [
      {
        target: `loops: finishing a 3-step task 95% → 80% over ${CASES} cases caught ≥ 90% (20 samples a case, within_max_steps_dropped of the suite or any case)`,
        value: caught.suiteFlagged,
        ok: caught.suiteFlagged >= 0.9,
      },
      {
        target: `loops: no change, ${CASES} cases finishing 95%: false alarms ≤ 5% (20 samples a case)`,
        value: quiet.suiteFlagged,
        ok: quiet.suiteFlagged <= 0.05,
      },
      {
        // The suite test's size holds at every sample count and rate, not only where the targets name it.
        target: `loops: no change, worst false alarms over 10/20 samples a case at 95% and 80% ≤ 5%`,
        value: worst,
        ok: worst <= 0.05,
      },
    ],
  };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

export function printLoopRows(rows: LoopRow[]): void {
  const header = [
    'tool loops finishing within max_steps (analyseRate)',
    'samples/case',
    'measure',
    'suite flagged',
    '95% CI',
    'pooled test',
    'cases flagged',
    'trials',
  ];
  const cells = rows.map((r) => [
    r.scenario,
    String(r.samples),
    r.drift ? 'detection' : 'false alarms',
    pct(r.suiteFlagged),
    `${pct(r.interval[0])}–${pct(r.interval[1])}`,
    pct(r.pooledFlagged),
    pct(r.caseFlagged),
    String(r.trials),
  ]);
  printTable(header, cells);
}
