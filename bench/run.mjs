// `npm run bench`: driftcheck against the raw transport limit on the simulator.
// Usage: node bench/run.mjs [--sizes 1000,20000,100000] [--slow-sizes 1000] [--latency-ms 50]
//   [--concurrency 16] [--runs 3] [--quick] [--no-startup] [--out bench/results/bench.json]
//   [--with-baselines]  (accept one untimed run as the baselines first: the steady nightly run,
//                        where every case is compared with its baseline, instead of a first run)
//   [--baseline-sizes 100000]  (sizes also measured with baselines, as a nightly run; '' for none)
//   [--scale repeats,merge]  (issue 12's rows: 1,000 cases × --repeat 10 against × 100, and a merge of
//                             10 shards of 10,000 cases; '' for none)
//   [--repeat-cases 1000] [--shard-cases 10000]  (smaller scale rows for a smoke check)
//   [--scale reports] [--report-cases 100000] [--report-failing 100]  (issue 19: report sizes and
//                             report.html's time to interactive in headless Chromium)
//   [--scale memory] [--memory-sizes 10000,100000] [--memory-runs 1]  (issue 19: peak RSS of validate, a
//                             first run and a run with baselines, from YAML files and from one JSONL table,
//                             at each size; each the median of --memory-runs runs, with their range)
//   [--memory-beyond 200000,400000]  (with --scale memory: first runs larger than the largest
//                             --memory-sizes, each against it: whether the peak still grows)
//   [--scale table] [--table-rows 100000]  (issue 19: validate of a JSONL table of that many rows)
//   [--scale compare] [--compare-cases 100000] [--compare-runs 1]  (run --models of two candidates over a JSONL
//                             table of that many rows, then compare of their runs: peak RSS,
//                             file sizes, compare.html usable in headless Chromium)
//   [--scale readers] [--reader-sizes 1000,100000]  (issue 34: written suites loaded with js-yaml's
//                             fast path first against `yaml` alone: wall, CPU, peak RSS)
//   [--stream-sizes 1000]  (issue 37: `run --stream` against a bare undici client reading the same
//                             event streams, at --latency-ms; '' for none)
//   [--stream-memory-sizes 10000] [--stream-memory-runs 1]  (issue 37: peak RSS of `run --stream`
//                             against a plain `run` of the same cases, alternated, at --latency-ms)
//   [--root DIR]  (another built driftcheck tree to measure; default this checkout)
// Needs a build (`npm run build`); `npm run bench` builds first.
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { binIn, measureNode, median, REPO, RSS_METHOD, startSim } from './process.mjs';
import {
  measureCompare,
  measureMemory,
  measureMerge,
  measureRecheck,
  measureReports,
  measureRepeats,
} from './scale.mjs';
import { measureTableValidate } from './table-validate.mjs';
import { measureYamlReaders } from './yaml-readers.mjs';
import {
  memoryTarget,
  renderScale,
  renderStreamMemory,
  renderTable,
  startupTargets,
  streamMemoryTargets,
  throughputTarget,
} from './targets.mjs';
import { benchEnv, benchKeys, writeWorkload } from './workload.mjs';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,20000,100000' },
    'slow-sizes': { type: 'string', default: '1000' },
    'latency-ms': { type: 'string', default: '50' },
    concurrency: { type: 'string', default: '16' },
    runs: { type: 'string', default: '3' },
    quick: { type: 'boolean', default: false },
    'no-startup': { type: 'boolean', default: false },
    'with-baselines': { type: 'boolean', default: false },
    'baseline-sizes': { type: 'string', default: '100000' },
    scale: { type: 'string', default: 'repeats,merge,reports,memory,table,compare,recheck,readers' },
    'table-rows': { type: 'string', default: '100000' },
    'compare-cases': { type: 'string', default: '100000' },
    'compare-runs': { type: 'string', default: '1' },
    'recheck-cases': { type: 'string', default: '100000' },
    'reader-sizes': { type: 'string', default: '1000,100000' },
    'repeat-cases': { type: 'string', default: '1000' },
    'shard-cases': { type: 'string', default: '10000' },
    'memory-sizes': { type: 'string', default: '10000,100000' },
    'memory-beyond': { type: 'string', default: '' },
    'memory-runs': { type: 'string', default: '1' },
    'report-cases': { type: 'string', default: '100000' },
    'report-failing': { type: 'string', default: '100' },
    'stream-sizes': { type: 'string', default: '1000' },
    'stream-memory-sizes': { type: 'string', default: '10000' },
    'stream-memory-runs': { type: 'string', default: '1' },
    out: { type: 'string', default: join(REPO, 'bench/results/bench.json') },
    root: { type: 'string', default: REPO },
  },
});
const BIN = binIn(resolve(values.root));
const list = (text) =>
  text
    ? text
        .split(',')
        .map(Number)
        .filter((n) => n > 0)
    : [];
const quick = values.quick;
const sizes = quick ? [1000] : list(values.sizes);
const slowSizes = list(values['slow-sizes']);
const latencyMs = Number(values['latency-ms']);
const concurrency = Number(values.concurrency);
const runs = quick ? 1 : Math.max(1, Number(values.runs));
const withBaselines = values['with-baselines'];
const baselineSizes = quick || withBaselines ? [] : list(values['baseline-sizes']);
const streamSizes = quick ? [1000] : list(values['stream-sizes']);
const streamMemorySizes = quick ? [] : list(values['stream-memory-sizes']);
const streamMemoryRuns = Math.max(1, Number(values['stream-memory-runs']));
const scale = new Set(quick ? [] : (values.scale ?? '').split(',').filter(Boolean));
const log = (text) => process.stderr.write(`${text}\n`);

const loadAtStart = loadavg()[0];
if (loadAtStart > cpus().length * 0.5)
  log(`note: load average ${loadAtStart.toFixed(1)} on ${cpus().length} CPUs — wall times will be noisy`);
const keys = benchKeys();
const env = benchEnv(keys);
const root = await mkdtemp(join(tmpdir(), 'driftcheck-bench-'));
try {
  const startup = values['no-startup'] ? null : await measureStartup(quick ? 3 : 10, quick ? 2 : 5);
  const rows = [];
  const modes = [
    { latencyMs: 0, sizes },
    { latencyMs, sizes: latencyMs > 0 ? slowSizes : [] },
  ];
  for (const mode of modes.filter((m) => m.sizes.length > 0)) {
    for (const size of mode.sizes) rows.push(await measureSize(size, mode.latencyMs, withBaselines));
  }
  for (const size of baselineSizes) rows.push(await measureSize(size, 0, true));
  for (const size of streamSizes) rows.push(await measureSize(size, latencyMs, withBaselines, true));
  const streamMemory = [];
  for (const size of streamMemorySizes) streamMemory.push(await measureStreamMemory(size, latencyMs));
  const scaleRows = await measureScale();
  if (rows.length || startup) process.stdout.write(`${renderTable(rows, startup)}\n`);
  if (streamMemory.length) process.stdout.write(`\n${renderStreamMemory(streamMemory, rows)}\n`);
  if (scaleRows.length) process.stdout.write(`\n${renderScale(scaleRows)}\n`);
  const results = {
    schema: 1,
    recorded_at: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpu_model: cpus()[0]?.model ?? null,
      total_memory_mb: Math.round(totalmem() / 2 ** 20),
      node: process.version,
      platform: process.platform,
      // Other work on the machine skews wall times (CPU times less so): recorded, not corrected.
      load_average_1m: { at_start: loadAtStart, at_end: loadavg()[0] },
    },
    method: {
      wall: 'spawn to exit of the whole process, measured by the parent (medians over runs)',
      peak_rss: RSS_METHOD,
      simulator: 'driftcheck sim in its own process, warmed up with one untimed pass per mode',
      order: 'undici first on odd runs, driftcheck first on even runs',
    },
    options: {
      sizes,
      slow_sizes: slowSizes,
      latency_ms: latencyMs,
      concurrency,
      runs,
      with_baselines: withBaselines,
      baseline_sizes: baselineSizes,
      stream_sizes: streamSizes,
      stream_memory_sizes: streamMemorySizes,
      stream_memory_runs: streamMemoryRuns,
      scale: [...scale],
    },
    startup,
    startup_targets: startupTargets(startup),
    rows: rows.map((row) => ({
      ...row,
      targets: [throughputTarget(row), memoryTarget(row)].filter(Boolean),
    })),
    stream_memory: streamMemory.map((m) => ({ ...m, targets: streamMemoryTargets(m) })),
    scale: scaleRows,
  };
  const out = resolve(values.out);
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
  log(`figures written to ${out}`);
} finally {
  await rm(root, { recursive: true, force: true });
}

/** The scale rows asked for with `--scale`, each on a fresh instant simulator. */
async function measureScale() {
  const out = [];
  const steps = [
    ['repeats', (ctx) => measureRepeats(ctx, { cases: Number(values['repeat-cases']) })],
    ['merge', (ctx) => measureMerge(ctx, { perShard: Number(values['shard-cases']) })],
    [
      'memory',
      (ctx) =>
        measureMemory(ctx, {
          sizes: list(values['memory-sizes']),
          beyond: list(values['memory-beyond']),
          runs: Number(values['memory-runs']),
        }),
    ],
    [
      'reports',
      (ctx) =>
        measureReports(ctx, {
          cases: Number(values['report-cases']),
          failing: Number(values['report-failing']),
        }),
    ],
    ['table', (ctx) => measureTableValidate(ctx, { rows: Number(values['table-rows']) })],
    [
      'compare',
      (ctx) =>
        measureCompare(ctx, { cases: Number(values['compare-cases']), runs: Number(values['compare-runs']) }),
    ],
    ['recheck', (ctx) => measureRecheck(ctx, { cases: Number(values['recheck-cases']) })],
    ['readers', (ctx) => measureYamlReaders(ctx, { sizes: list(values['reader-sizes']) })],
  ];
  for (const [name, measure] of steps.filter(([n]) => scale.has(n))) {
    const sim = await startSim(0, BIN);
    const dir = join(root, `scale-${name}`);
    try {
      out.push(await measure({ bin: BIN, dir, env, tmp: root, simUrl: sim.url, log }));
    } finally {
      await sim.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }
  return out;
}

/**
 * One (size, latency) row: `runs` paired measurements of undici and driftcheck on a fresh simulator.
 * `stream`: driftcheck runs with `--stream` and the bare client asks for and reads the same event
 * streams (bench/undici-client.mjs --stream).
 */
async function measureSize(size, latency, baselines, stream = false) {
  const sim = await startSim(latency, BIN);
  const dir = join(root, `n${size}-l${latency}${stream ? '-stream' : ''}`);
  try {
    const workload = await writeWorkload(dir, size, sim.url, { stream });
    const undiciArgs = [
      join(REPO, 'bench/undici-client.mjs'),
      '--url',
      `${sim.url}/api/v1/chat/completions`,
      '--requests',
      workload.requestsFile,
      '--concurrency',
      String(concurrency),
      ...(stream ? ['--stream'] : []),
    ];
    // Warm the simulator's JIT so the first timed run does not pay for it.
    const warmup = await writeWarmup(dir, workload.requestsFile);
    await measureNode(
      undiciArgs.map((a) => (a === workload.requestsFile ? warmup : a)),
      {
        cwd: dir,
        env,
        tmp: root,
      },
    ).catch(() => null);
    const flags = stream ? ['--stream'] : [];
    if (baselines) await runDriftcheck(workload, dir, size, [...flags, '--update-baselines']);
    const samples = { undici: [], driftcheck: [] };
    for (let run = 0; run < runs; run++) {
      const order = run % 2 === 0 ? ['undici', 'driftcheck'] : ['driftcheck', 'undici'];
      for (const who of order) {
        const sample =
          who === 'undici'
            ? await runUndici(undiciArgs, dir, size)
            : await runDriftcheck(workload, dir, size, flags);
        sample.tailMs = await tailOf(sim, sample);
        samples[who].push(sample);
        log(
          `${String(size).padStart(6)} ${latency ? `${latency} ms` : 'instant'}${stream ? ' streamed' : ''}${baselines ? ' baselines' : ''} run ${run + 1}/${runs} ${who.padEnd(10)} ` +
            `${(sample.wallMs / 1000).toFixed(2)} s  ${sample.peakRssMb?.toFixed(0)} MB`,
        );
      }
    }
    const undici = summarise(samples.undici);
    const driftcheck = summarise(samples.driftcheck);
    return {
      size,
      latencyMs: latency,
      baselines,
      stream,
      concurrency,
      undici,
      driftcheck,
      ratio: driftcheck.wallMs / undici.wallMs,
      casesPerSecond: size / (driftcheck.wallMs / 1000),
      undiciCasesPerSecond: size / (undici.wallMs / 1000),
    };
  } finally {
    await sim.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Issue 36's tail: from the simulator's last reply written out to the client's exit, in ms
 * (both clocks this machine's). What a client does after its last answer: folding, reports.
 */
async function tailOf(sim, sample) {
  const stats = await (await fetch(`${sim.url}/__sim/stats`)).json();
  return stats.lastReplyAt === null || sample.exitedAt === null ? null : sample.exitedAt - stats.lastReplyAt;
}

async function runUndici(args, dir, size) {
  const m = await measureNode(args, { cwd: dir, env, tmp: root });
  const summary = safeJson(m.stdout.trim().split('\n').pop());
  if (m.code !== 0 || summary?.ok !== size)
    throw new Error(`undici client failed (exit ${m.code}): ${m.stdout}${m.stderr}`);
  return m;
}

async function runDriftcheck(workload, dir, size, extra = []) {
  const reportDir = join(dir, 'reports');
  const args = [
    BIN,
    'run',
    workload.suitesDir,
    '--config',
    workload.config,
    '--concurrency',
    String(concurrency),
  ];
  args.push('--report-dir', reportDir, '--baseline-dir', join(dir, 'baselines'), ...extra);
  const accepting = extra.includes('--update-baselines');
  // Accepting baselines prints a line per suite after the plan line the check below looks for.
  const m = await measureNode(args, { cwd: dir, env, tmp: root, keepOutput: accepting ? 2 ** 20 : 4000 });
  // A streamed run's samples say how their tokens came: a run that did not stream is a bench bug.
  if (m.code === 0 && extra.includes('--stream') && !(await journalStreamed(reportDir)))
    throw new Error(`driftcheck run --stream recorded no streamed sample:\n${m.stderr}`);
  await rm(reportDir, { recursive: true, force: true });
  // Every case passes on the simulator (new cases drift as info only), so anything but 0 is a bench bug.
  if (m.code !== 0 || !m.stderr.includes(`${size} samples`))
    throw new Error(`driftcheck run failed (exit ${m.code}):\n${m.stdout}\n${m.stderr}`);
  if (accepting && !m.stderr.includes('baseline written'))
    throw new Error(`driftcheck wrote no baselines:\n${m.stderr}`);
  return m;
}

/** Whether the first sample of the run in `reportDir` (its journal's first line with a sample) recorded a stream. */
async function journalStreamed(reportDir) {
  const [run] = await readdir(reportDir);
  if (!run) return false;
  const journal = await readFile(join(reportDir, run, 'results.jsonl'), 'utf8');
  const sample = journal.split('\n', 50).find((line) => line.includes('"first_token_ms"'));
  return sample !== undefined && /"stream":\{"first_token_ms":\d/.test(sample);
}

/**
 * Issue 37's memory figure: peak RSS of `run --stream` and of a plain `run` of the same `size`
 * cases at `latency`, alternated (`--stream-memory-runs` of each), on one simulator. Whether
 * reading streams keeps anything per case that a plain run does not.
 */
async function measureStreamMemory(size, latency) {
  const sim = await startSim(latency, BIN);
  const dir = join(root, `stream-memory-${size}`);
  try {
    const workload = await writeWorkload(dir, size, sim.url, { stream: true });
    const samples = { streamed: [], plain: [] };
    for (let run = 0; run < streamMemoryRuns; run++) {
      const order = run % 2 === 0 ? ['streamed', 'plain'] : ['plain', 'streamed'];
      for (const who of order) {
        const sample = await runDriftcheck(workload, dir, size, who === 'streamed' ? ['--stream'] : []);
        samples[who].push(sample);
        log(
          `${String(size).padStart(6)} ${latency ? `${latency} ms` : 'instant'} memory run ${run + 1}/${streamMemoryRuns} ${who.padEnd(8)} ` +
            `${(sample.wallMs / 1000).toFixed(2)} s  ${sample.peakRssMb?.toFixed(0)} MB`,
        );
      }
    }
    return {
      size,
      latencyMs: latency,
      streamed: summarise(samples.streamed),
      plain: summarise(samples.plain),
    };
  } finally {
    await sim.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Start-up (issue 36): `node -e 0`, `--version`, and `validate`, `list` and `report` of the
 * demo (suites/demo and the repository's config copied in; `report` of one `run --sim` of
 * it; `validate` also with no verdicts kept between commands, as on a fresh machine), taken in turn `n` times so that each ratio to `node -e 0` is of neighbours on a noisy
 * machine; and a 10-case `run --sim` end to end (median of `m`).
 */
async function measureStartup(n, m) {
  const dir = join(root, 'startup');
  const workload = await writeWorkload(dir, 10, 'http://127.0.0.1:9');
  await cp(join(REPO, 'suites/demo'), join(dir, 'demo/suites/demo'), { recursive: true });
  await cp(join(REPO, 'baselines'), join(dir, 'demo/baselines'), { recursive: true });
  await cp(join(REPO, 'driftcheck.config.yaml'), join(dir, 'demo/driftcheck.config.yaml'));
  const demo = join(dir, 'demo');
  // The verdicts of the demo's schemas and patterns kept between commands (src/util/verdict-cache.ts)
  // in a folder of the bench's own, filled by the run below; `validate, cold` keeps none.
  const cached = { ...env, DRIFTCHECK_CACHE_DIR: join(dir, 'cache') };
  const once = async (args, cwd = dir, codes = [0], withEnv = cached) => {
    const s = await measureNode(args, { cwd, env: withEnv, tmp: root });
    if (!codes.includes(s.code)) throw new Error(`${args.join(' ')} failed (exit ${s.code}): ${s.stderr}`);
    return s;
  };
  // The demo regresses on purpose (exit 1); its run folder is what `report` renders.
  await once([BIN, 'run', '--sim', 'suites/demo', '--report-dir', 'reports'], demo, [1]);
  const [run] = (await readdir(join(demo, 'reports'))).filter((f) => /^\d{8}T/.test(f));
  const commands = {
    nodeBare: [['-e', '0'], dir, [0]],
    version: [[BIN, '--version'], dir, [0]],
    validate: [[BIN, 'validate', 'suites/demo'], demo, [0]],
    validateCold: [[BIN, 'validate', 'suites/demo'], demo, [0], { ...env, DRIFTCHECK_CACHE_DIR: 'off' }],
    list: [[BIN, 'list', 'suites/demo'], demo, [0]],
    report: [[BIN, 'report', join('reports', run)], demo, [1]],
  };
  const samples = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let i = 0; i < n; i++)
    for (const [name, [args, cwd, codes, withEnv]] of Object.entries(commands))
      samples[name].push(await once(args, cwd, codes, withEnv));
  const simArgs = [BIN, 'run', '--sim', workload.suitesDir, '--config', workload.config];
  simArgs.push('--report-dir', join(dir, 'reports'), '--baseline-dir', join(dir, 'baselines'));
  const sim10 = [];
  for (let i = 0; i < m; i++) sim10.push(await once(simArgs));
  const result = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summarise(v)]));
  result.sim10 = summarise(sim10);
  log(
    `start-up: node -e 0 ${result.nodeBare.medianMs.toFixed(0)} ms, --version ${result.version.medianMs.toFixed(0)} ms, ` +
      `validate ${result.validate.medianMs.toFixed(0)} ms (cold ${result.validateCold.medianMs.toFixed(0)}), list ${result.list.medianMs.toFixed(0)} ms, ` +
      `report ${result.report.medianMs.toFixed(0)} ms, 10-case run --sim ${result.sim10.medianMs.toFixed(0)} ms`,
  );
  return result;
}

/** A small untimed request file for the warm-up pass: the first 2,000 requests. */
async function writeWarmup(dir, requestsFile) {
  const file = join(dir, 'warmup.jsonl');
  const lines = (await readFile(requestsFile, 'utf8')).split('\n').slice(0, 2000);
  await writeFile(file, `${lines.filter(Boolean).join('\n')}\n`);
  return file;
}

function summarise(samples) {
  const pick = (key) => samples.map((s) => s[key]).filter((v) => v !== null);
  const wall = pick('wallMs');
  const cpu = pick('cpuMs');
  const rss = pick('peakRssMb');
  const tail = samples.map((s) => s.tailMs).filter((v) => typeof v === 'number');
  return {
    tailMs: tail.length ? median(tail) : null,
    wallMs: median(wall),
    medianMs: median(wall),
    minMs: Math.min(...wall),
    maxMs: Math.max(...wall),
    cpuMs: cpu.length ? median(cpu) : null,
    peakRssMb: rss.length ? median(rss) : null,
    peakRssMaxMb: rss.length ? Math.max(...rss) : null,
    samples: samples.map((s) => ({
      wallMs: s.wallMs,
      cpuMs: s.cpuMs,
      peakRssMb: s.peakRssMb,
      tailMs: s.tailMs ?? null,
      load1m: s.load1m,
    })),
  };
}

function safeJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
