// The verdict benchmark through the real pipeline: the embedded simulator plays stochastic
// models with known truth (sim: { pass_rate }), driftcheck records a baseline run, then a
// second run is judged against it. Every case is one independent trial.
// Usage: npm run build && node bench/verdicts-sim.mjs [--cases 200]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateSimKey, loadReport, loadSuites, runSuites, startSimulator } from '../dist/index.js';
import { simRequestHeaders } from '../dist/sim/protocol.js';

const { values } = parseArgs({ options: { cases: { type: 'string', default: '200' } } });
const CASES = Number(values.cases);

/** A suite of `n` cases answering correctly with probability `rate` (and an optional fault). */
function suiteText(name, n, rate, repeat, extra = '') {
  const cases = Array.from(
    { length: n },
    (_, i) =>
      `  - id: c${i}\n    prompt: "Say exactly: answer ${i}"\n    sim: { pass_rate: ${rate}${extra} }\n    expect: [{ contains: answer }, { finish_reason: stop }]`,
  );
  return `suite: ${name}\nservice: router\nmodel: openai/gpt-4o-mini\nrepeat: ${repeat}\ncases:\n${cases.join('\n')}\n`;
}

async function runOnce(dir, sim, key, files, update) {
  await Promise.all(files.map(([name, text]) => writeFile(join(dir, 'suites', `${name}.yaml`), text)));
  const suites = await loadSuites([join(dir, 'suites')], { cwd: dir });
  const config = {
    file: null,
    services: {
      router: {
        name: 'router',
        kind: 'router',
        base_url: sim.routerBaseUrl,
        api_key_env: 'K',
        headers: {},
        max_tokens: 256,
        timeout_s: 30,
        retries: 0,
        concurrency: 32,
      },
    },
  };
  const { runDir } = await runSuites({
    requestHeaders: simRequestHeaders,
    config,
    suites,
    env: { K: key },
    reportDir: join(dir, 'reports'),
    baselineDir: join(dir, 'baselines'),
    version: 'bench',
    reporters: new Set(),
    meta: {
      command: ['bench'],
      paths: ['suites'],
      config_file: null,
      allow_alias: false,
      sim: true,
      plan: {},
      concurrency: null,
      update_baselines: update,
    },
  });
  // One entry per case: its pass rate and verdict are on the entry.
  return loadReport(runDir);
}

/** Runs a baseline at `before`, then a run at `after`; returns the share of flagged trials. */
async function scenario(
  label,
  { before, after, repeat = 'auto', suites = 1, perSuite = CASES, extraAfter = '' },
) {
  const dir = await mkdtemp(join(tmpdir(), 'dc-verdicts-'));
  await import('node:fs/promises').then((fs) => fs.mkdir(join(dir, 'suites')));
  const key = generateSimKey('router');
  const sim = await startSimulator({ routerKeys: [key] });
  try {
    const names = Array.from({ length: suites }, (_, i) => `s${i}`);
    await runOnce(
      dir,
      sim,
      key,
      names.map((n) => [n, suiteText(n, perSuite, before, repeat)]),
      true,
    );
    const report = await runOnce(
      dir,
      sim,
      key,
      names.map((n) => [n, suiteText(n, perSuite, after, repeat, extraAfter)]),
      false,
    );
    const stats = report.cases.filter((c) => c.pass_rate !== null);
    const perCase = stats.filter((c) => c.status === 'fail').length / stats.length;
    const perSuiteRate =
      report.suites.filter(
        (s) =>
          s.drift.some((d) => d.kind === 'pass_rate_dropped') ||
          stats.some((c) => c.suite === s.suite && c.status === 'fail'),
      ).length / report.suites.length;
    const samples = stats.reduce((n, c) => n + c.samples.sent, 0) / stats.length;
    return {
      label,
      trials: suites > 1 ? suites : stats.length,
      rate: suites > 1 ? perSuiteRate : perCase,
      samples,
    };
  } finally {
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const rows = [
  ['false alarms', await scenario('no drift, 95% (adaptive)', { before: 0.95, after: 0.95 })],
  ['false alarms', await scenario('no drift, 80% (adaptive)', { before: 0.8, after: 0.8 })],
  ['detection', await scenario('one case 95% → 70% (adaptive)', { before: 0.95, after: 0.7 })],
  [
    'detection',
    await scenario('truncation stop → length (adaptive)', {
      before: 0.95,
      after: 0.95,
      extraAfter: ', fault: length',
    }),
  ],
  [
    'false alarms',
    await scenario('no drift, suites of 20 cases at 95%, 10 repeats', {
      before: 0.95,
      after: 0.95,
      repeat: 10,
      suites: 40,
      perSuite: 20,
    }),
  ],
  [
    'detection',
    await scenario('suites of 20 cases 95% → 85%, 10 repeats', {
      before: 0.95,
      after: 0.85,
      repeat: 10,
      suites: 40,
      perSuite: 20,
    }),
  ],
];
console.log(
  'scenario (through the simulator)                      measure        rate     mean samples  trials',
);
for (const [measure, r] of rows) {
  console.log(
    `${r.label.padEnd(54)} ${measure.padEnd(14)} ${(r.rate * 100).toFixed(1).padStart(5)}%  ${r.samples.toFixed(1).padStart(12)}  ${String(r.trials).padStart(6)}`,
  );
}
