/**
 * Verdict benchmark: how often the pass-rate drift verdicts raise false alarms when
 * nothing drifted, and how often they catch real drops, at several repeat policies.
 *
 * Run: `npm run bench:verdicts`. Node 20 cannot run TypeScript directly, so the script
 * compiles this file and the statistics it imports with the repo's own `tsc`
 * (bench/tsconfig.verdicts.json → bench/results/build/, git-ignored) and runs the output.
 * Every trial draws Bernoulli samples with known true pass rates from a seeded PRNG, so
 * the figures are the same on every run. They are also written to
 * bench/results/verdicts.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bernoulli, createRng, sequentialDesign, wilsonInterval } from '../src/stats/index.js';
import { type CaseSampler, evaluateScenario, type RepeatPolicy } from './scenario.js';
import { expectationBench, printExpectationRows } from './verdicts-expectations.js';
import { printTrendRows, trendBench } from './verdicts-trend.js';
import { printToolRows, toolBench } from './verdicts-tools.js';
import { loopBench, printLoopRows } from './verdicts-loops.js';
import { pairedBench, printPairedRows } from './verdicts-paired.js';
import { printStreamRows, streamBench } from './verdicts-stream.js';
import { printTable } from './table.js';

interface Scenario {
  name: string;
  drift: boolean;
  /** [baseline rate, current rate] of each case. */
  rates: [number, number][];
  trials: number;
}

const repeatAll = (n: number, pair: [number, number]): [number, number][] =>
  Array.from({ length: n }, () => pair);
const spread = (n: number): [number, number][] =>
  Array.from({ length: n }, (_, i) => [0.6 + (0.4 * i) / (n - 1), 0.6 + (0.4 * i) / (n - 1)]);

const SCENARIOS: Scenario[] = [
  { name: 'no drift, 1 case at 95%', drift: false, rates: [[0.95, 0.95]], trials: 20_000 },
  { name: 'no drift, 1 case at 80%', drift: false, rates: [[0.8, 0.8]], trials: 20_000 },
  { name: 'no drift, 1 case at 50%', drift: false, rates: [[0.5, 0.5]], trials: 20_000 },
  { name: 'no drift, 1 case at 100%', drift: false, rates: [[1, 1]], trials: 2_000 },
  { name: 'drop 95% → 70%, 1 case', drift: true, rates: [[0.95, 0.7]], trials: 20_000 },
  { name: 'model swap (proxy) 95% → 80%', drift: true, rates: [[0.95, 0.8]], trials: 20_000 },
  { name: 'truncation (proxy) 95% → 20%', drift: true, rates: [[0.95, 0.2]], trials: 20_000 },
  { name: 'no drift, 20 cases at 95%', drift: false, rates: repeatAll(20, [0.95, 0.95]), trials: 5_000 },
  { name: 'no drift, 20 cases at 60–100%', drift: false, rates: spread(20), trials: 5_000 },
  { name: 'drop 20 cases 95% → 85%', drift: true, rates: repeatAll(20, [0.95, 0.85]), trials: 5_000 },
];

const POLICIES: RepeatPolicy[] = [
  { kind: 'fixed', repeats: 10 },
  { kind: 'fixed', repeats: 20, test: 'fisher' },
  { kind: 'fixed', repeats: 20 },
  { kind: 'fixed', repeats: 40 },
  { kind: 'adaptive', minSamples: 10, maxSamples: 40 },
];

const ALPHA = 0.05;

interface Row {
  scenario: string;
  drift: boolean;
  policy: string;
  measure: 'false alarms' | 'detection';
  rate: number;
  /** 95% Wilson interval of the rate: the Monte-Carlo error of this figure. */
  interval: [number, number];
  meanSamples: number;
  trials: number;
}

function runAll(): Row[] {
  const rows: Row[] = [];
  SCENARIOS.forEach((scenario, s) => {
    POLICIES.forEach((policy, p) => {
      // The plain-Fisher row is a per-case reference; a suite is always judged by suiteVerdict.
      if (scenario.rates.length > 1 && policy.kind === 'fixed' && policy.test === 'fisher') return;
      const random = createRng(0x5eed + 100 * s + p);
      const cases: CaseSampler[] = scenario.rates.map(([base, now]) => ({
        baseline: bernoulli(base, random),
        current: bernoulli(now, random),
      }));
      const result = evaluateScenario(cases, policy, { trials: scenario.trials, alpha: ALPHA });
      const { low, high } = wilsonInterval(Math.round(result.flaggedRate * result.trials), result.trials);
      rows.push({
        scenario: scenario.name,
        drift: scenario.drift,
        policy: result.policy,
        measure: scenario.drift ? 'detection' : 'false alarms',
        rate: result.flaggedRate,
        interval: [low, high],
        meanSamples: result.meanSamples,
        trials: result.trials,
      });
    });
  });
  return rows;
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

function printDriftRows(rows: Row[]): void {
  const header = ['scenario', 'policy', 'measure', 'rate', '95% CI', 'mean samples/case', 'trials'];
  const cells = rows.map((r) => [
    r.scenario,
    r.policy,
    r.measure,
    pct(r.rate),
    `${pct(r.interval[0])}–${pct(r.interval[1])}`,
    r.meanSamples.toFixed(1),
    String(r.trials),
  ]);
  printTable(header, cells);
}

function checkTargets(rows: Row[]): { target: string; value: number; ok: boolean }[] {
  const find = (scenario: string, policy: string): Row =>
    rows.find((r) => r.scenario === scenario && r.policy === policy)!;
  const worstFalseAlarm = Math.max(
    ...rows.filter((r) => !r.drift && !r.policy.includes('Fisher')).map((r) => r.rate),
  );
  const single = find('drop 95% → 70%, 1 case', 'adaptive 10..40').rate;
  const suite = find('drop 20 cases 95% → 85%', 'fixed 10').rate;
  return [
    {
      target: `false alarms ≤ 5% at α = ${ALPHA} (worst no-drift row)`,
      value: worstFalseAlarm,
      ok: worstFalseAlarm <= 0.05,
    },
    {
      target: '1 case 95% → 70% detected ≥ 90% (adaptive, ≤ 40 samples a side)',
      value: single,
      ok: single >= 0.9,
    },
    { target: '20 cases 95% → 85%, 10 repeats each, detected ≥ 90%', value: suite, ok: suite >= 0.9 },
  ];
}

const design = sequentialDesign(40, [10, 20, 30, 40], ALPHA);
console.log(
  `adaptive design (baseline 40 samples, looks ${design.looks.join('/')}): Fisher-p levels ${design.levels
    .map((l) => l.toFixed(4))
    .join(' / ')}; exact worst-case false-alarm rate ${pct(design.size)}\n`,
);
const rows = runAll();
printDriftRows(rows);
// Across nights: the slow-drift detector of the nightly history (bench/verdicts-trend.ts).
const trend = trendBench();
console.log('');
printTrendRows(trend.rows);
// One case's verdict: its expectations, then the baseline test (bench/verdicts-expectations.ts).
const expectations = expectationBench();
console.log('');
printExpectationRows(expectations.rows);
// Tool drift: valid-call and trigger rates over a suite, by the product's toolRateDrift (bench/verdicts-tools.ts).
const tools = toolBench();
console.log('');
printToolRows(tools.rows);
// Tool loops' rate of finishing within max_steps over a suite, by the product's analyseRate (bench/verdicts-loops.ts).
const loops = loopBench();
console.log('');
printLoopRows(loops.rows);
// Time to first token over a streamed suite, by the product's stream.drift.suite (bench/verdicts-stream.ts).
const streamed = streamBench();
console.log('');
printStreamRows(streamed.rows);
// Candidates against the reference, paired case by case (bench/verdicts-paired.ts).
const paired = pairedBench();
console.log('');
printPairedRows(paired.rows);
const targets = [
  ...checkTargets(rows),
  ...trend.targets,
  ...expectations.targets,
  ...tools.targets,
  ...loops.targets,
  ...streamed.targets,
  ...paired.targets,
];
console.log('');
for (const t of targets) console.log(`${t.ok ? 'met    ' : 'MISSED '} ${t.target}: ${pct(t.value)}`);
if (targets.some((t) => !t.ok)) process.exitCode = 1;

const out = fileURLToPath(new URL('../../verdicts.json', import.meta.url));
mkdirSync(fileURLToPath(new URL('../../', import.meta.url)), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify({ alpha: ALPHA, design, rows, trend: trend.rows, expectations: expectations.rows, tools: tools.rows, loops: loops.rows, stream: streamed.rows, paired: paired.rows, targets }, null, 2)}\n`,
);
console.log(`\nfigures written to ${out}`);
