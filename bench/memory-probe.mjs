// Where driftcheck's memory goes: runs the library (dist/) in this process on generated cases
// against the simulator and prints heap/RSS after each phase, with a forced GC before each
// reading so the figures are what is *retained*, not garbage waiting to be collected.
// Usage: node --expose-gc bench/memory-probe.mjs [--size 20000] [--concurrency 16] [--root DIR]
//   [--source yaml|jsonl]  (files of 1,000 written cases, or one suite over one JSONL table)
//   [--with-baselines]     (accept one run as the baselines first, then probe a run against them)
//   [--snapshot PERCENT]   (also write a heap snapshot when that share of the results is in)
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { binIn, REPO, startSim } from './process.mjs';
import { writeHeapSnapshot } from 'node:v8';
import { benchEnv, benchKeys, writeTableWorkload, writeWorkload } from './workload.mjs';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '16' },
    root: { type: 'string', default: REPO },
    source: { type: 'string', default: 'yaml' },
    'with-baselines': { type: 'boolean', default: false },
    snapshot: { type: 'string' },
  },
});
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const size = Number(values.size);
const dist = pathToFileURL(join(resolve(values.root), 'dist/index.js')).href;
const { loadConfig, loadSuites, readSuiteCases, runSuites } = await import(dist);

const MB = 2 ** 20;
const readings = [];
function reading(phase) {
  globalThis.gc();
  const m = process.memoryUsage();
  const row = {
    phase,
    heapUsedMb: m.heapUsed / MB,
    // `external` already counts ArrayBuffers (and so Buffers and typed arrays).
    externalMb: m.external / MB,
    rssMb: m.rss / MB,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
  readings.push(row);
  process.stderr.write(
    `${phase.padEnd(34)} heap ${row.heapUsedMb.toFixed(1).padStart(7)} MB  external ${row.externalMb.toFixed(1).padStart(6)} MB  ` +
      `rss ${row.rssMb.toFixed(0).padStart(4)} MB  peak rss ${row.peakRssMb.toFixed(0).padStart(4)} MB\n`,
  );
}

const root = await mkdtemp(join(tmpdir(), 'driftcheck-memory-'));
const sim = await startSim(0, binIn(resolve(values.root)));
try {
  const write = values.source === 'jsonl' ? writeTableWorkload : writeWorkload;
  const workload = await write(root, size, sim.url);
  const env = { ...process.env, ...benchEnv(benchKeys()) };
  reading('start (modules loaded)');
  const config = await loadConfig(workload.config, env, root);
  // As `driftcheck run` loads them: every case checked, the first 10,000 written ones held,
  // every other suite read again when the run reaches it.
  let suites = await loadSuites([workload.suitesDir], { cwd: root, cases: { hold: 10000 } });
  const casesOf = (suite) =>
    suite.cases.length === 0 && suite.counts?.cases > 0 ? readSuiteCases(suite, { cwd: root }) : suite.cases;
  reading(`suites loaded (${size} cases)`);
  let done = 0;
  const marks = new Set([0.25, 0.5, 1].map((f) => Math.round(f * size)));
  const snapshotAt = values.snapshot ? Math.round((Number(values.snapshot) / 100) * size) : -1;
  const meta = () => ({
    command: ['bench'],
    paths: [workload.suitesDir],
    config_file: workload.config,
    allow_alias: false,
    sim: false,
    plan: {},
    concurrency: Number(values.concurrency),
    update_baselines: false,
  });
  const run = (extra) =>
    runSuites({
      config,
      suites,
      casesOf,
      env,
      reportDir: join(root, 'reports'),
      baselineDir: join(root, 'baselines'),
      version: 'bench',
      meta: meta(),
      ...extra,
    });
  if (values['with-baselines']) {
    await run({ meta: { ...meta(), update_baselines: true } });
    reading('baselines accepted (untimed run)');
  }
  let result = await run({
    onResult: () => {
      done += 1;
      if (marks.has(done)) reading(`${done} results (${Math.round((100 * done) / size)} %)`);
      if (done === snapshotAt) process.stderr.write(`heap snapshot: ${writeHeapSnapshot()}\n`);
    },
  });
  reading('run returned (report in memory)');
  const reportBytes = (await stat(join(result.runDir, 'report.json'))).size;
  const journalBytes = (await stat(join(result.runDir, 'results.jsonl'))).size;
  process.stderr.write(
    `report.json ${(reportBytes / MB).toFixed(1)} MB, results.jsonl ${(journalBytes / MB).toFixed(1)} MB\n`,
  );
  result = null;
  reading('report released');
  suites = null;
  reading('suites released');
  process.stdout.write(`${JSON.stringify({ size, readings, reportBytes, journalBytes }, null, 2)}\n`);
} finally {
  await sim.stop();
  await rm(root, { recursive: true, force: true });
}
