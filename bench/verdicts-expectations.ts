/**
 * A case's verdict over its samples (src/fold/pass-rates.ts): it fails when fewer than half
 * its samples pass its checks, whatever the baseline says, or when its pass rate dropped
 * against the baseline. These rows run the real analysis on 10 samples a case against the
 * baselines `--update-baselines` writes without `--repeat` (one sample a case), and show
 * what the baseline test alone would have said. Part of `npm run bench:verdicts`. Seeded.
 */
import { analysePassRates, type CaseSamples } from '../src/fold/pass-rates.js';
import { bernoulli, createRng, type Samples, wilsonInterval } from '../src/stats/index.js';
import { printTable } from './table.js';

const REPEATS = 10;

interface Scenario {
  name: string;
  /** [baseline rate, current rate] per case; the first case is the one watched. */
  rates: [number, number][];
  baselineSamples: number;
  trials: number;
}

export interface ExpectationRow {
  scenario: string;
  /** Share of trials where the first case fails the run (expectations or drop). */
  fails: number;
  failsInterval: [number, number];
  /** Share where the baseline test alone (Holm-adjusted in a suite) flagged the first case. */
  dropped: number;
  /** Share where any case of the suite fails the run. */
  anyFails: number;
  trials: number;
}

export interface ExpectationTarget {
  target: string;
  value: number;
  ok: boolean;
}

const healthy = (n: number, rate: number): [number, number][] =>
  Array.from({ length: n }, () => [rate, rate]);

const SCENARIOS: Scenario[] = [
  {
    name: 'demo: 1 of 5 cases 100% → 0%, 1-sample baselines',
    rates: [[1, 0], ...healthy(4, 1)],
    baselineSamples: 1,
    trials: 2_000,
  },
  { name: '1 case 100% → 0%, 1-sample baseline', rates: [[1, 0]], baselineSamples: 1, trials: 2_000 },
  {
    name: '1 of 20 cases 95% → 30%, 1-sample baselines',
    rates: [[0.95, 0.3], ...healthy(19, 0.95)],
    baselineSamples: 1,
    trials: 5_000,
  },
  {
    name: 'no drift, 20 cases at 95%, 1-sample baselines',
    rates: healthy(20, 0.95),
    baselineSamples: 1,
    trials: 5_000,
  },
  {
    name: 'no drift, 20 cases at 80%, 1-sample baselines',
    rates: healthy(20, 0.8),
    baselineSamples: 1,
    trials: 5_000,
  },
  {
    name: 'no drift, 1 case at 50%, 10-sample baseline',
    rates: [[0.5, 0.5]],
    baselineSamples: 10,
    trials: 20_000,
  },
];

function draw(sample: () => boolean, n: number): Samples {
  let pass = 0;
  for (let i = 0; i < n; i++) if (sample()) pass++;
  return { pass, total: n };
}

function runScenario(scenario: Scenario, seed: number): ExpectationRow {
  const random = createRng(seed);
  const samplers = scenario.rates.map(([base, now]) => ({
    baseline: bernoulli(base, random),
    current: bernoulli(now, random),
  }));
  let fails = 0;
  let dropped = 0;
  let anyFails = 0;
  for (let t = 0; t < scenario.trials; t++) {
    const cases: CaseSamples[] = samplers.map((s, i) => ({
      case: `c${i}`,
      samples: draw(s.current, REPEATS),
      baseline: draw(s.baseline, scenario.baselineSamples),
      adaptive: false,
    }));
    const { stats } = analysePassRates(cases);
    const watched = stats.find((s) => s.case === 'c0')!;
    if (watched.failing) fails++;
    if (watched.dropped) dropped++;
    if (stats.some((s) => s.failing)) anyFails++;
  }
  const n = scenario.trials;
  const { low, high } = wilsonInterval(fails, n);
  return {
    scenario: scenario.name,
    fails: fails / n,
    failsInterval: [low, high],
    dropped: dropped / n,
    anyFails: anyFails / n,
    trials: n,
  };
}

/** Every row and target of the case verdict. */
export function expectationBench(): { rows: ExpectationRow[]; targets: ExpectationTarget[] } {
  const rows = SCENARIOS.map((s, i) => runScenario(s, 0xe4 + i));
  const row = (prefix: string) => rows.find((r) => r.scenario.startsWith(prefix))!;
  const demo = row('demo:');
  const quiet = row('no drift, 20 cases at 95%');
  return {
    rows,
    targets: [
      {
        target:
          'verdict: a case failing 10/10 samples against a 1-sample baseline fails, in a suite of 5 (100%)',
        value: demo.fails,
        ok: demo.fails === 1,
      },
      {
        target: 'verdict: 20 healthy cases at 95%, 1-sample baselines: a night with a failing case ≤ 1%',
        value: quiet.anyFails,
        ok: quiet.anyFails <= 0.01,
      },
    ],
  };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

export function printExpectationRows(rows: ExpectationRow[]): void {
  const header = [
    `case verdict (${REPEATS} samples a case)`,
    'watched case fails',
    '95% CI',
    'baseline test alone',
    'any case fails',
    'trials',
  ];
  const cells = rows.map((r) => [
    r.scenario,
    pct(r.fails),
    `${pct(r.failsInterval[0])}–${pct(r.failsInterval[1])}`,
    pct(r.dropped),
    pct(r.anyFails),
    String(r.trials),
  ]);
  printTable(header, cells);
}
