// Profiles one `driftcheck run` on generated cases against the simulator (own process).
// Usage: node bench/profile.mjs [--size 20000] [--latency-ms 0] [--concurrency 16]
//   [--heap] [--sim] [--stream] [--out-dir bench/results/profile] [--root DIR] [--interval 1000]
// (--stream: `run --stream`, every answer read as an event stream)
// Writes the .cpuprofile (and .heapprofile with --heap) and prints their summaries.
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { binIn, measureNode, REPO, startSim } from './process.mjs';
import { benchEnv, benchKeys, writeWorkload } from './workload.mjs';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '20000' },
    'latency-ms': { type: 'string', default: '0' },
    concurrency: { type: 'string', default: '16' },
    heap: { type: 'boolean', default: false },
    sim: { type: 'boolean', default: false },
    stream: { type: 'boolean', default: false },
    'out-dir': { type: 'string', default: join(REPO, 'bench/results/profile') },
    root: { type: 'string', default: REPO },
    // Microseconds between samples (node's --cpu-prof-interval; its default is 1000).
    interval: { type: 'string', default: '1000' },
  },
});
const BIN = binIn(resolve(values.root));
const size = Number(values.size);
const outDir = resolve(values['out-dir']);
await mkdir(outDir, { recursive: true });
const root = await mkdtemp(join(tmpdir(), 'driftcheck-profile-'));
const sim = await startSim(Number(values['latency-ms']), BIN);
try {
  const workload = await writeWorkload(root, size, sim.url, { stream: values.stream });
  const before = new Set(await readdir(outDir));
  const flags = ['--cpu-prof', `--cpu-prof-dir=${outDir}`, `--cpu-prof-interval=${values.interval}`];
  if (values.heap) flags.push('--heap-prof', `--heap-prof-dir=${outDir}`);
  // --sim: the in-process simulator of `run --sim` (start-up path) instead of the external one.
  const args = [
    ...flags,
    BIN,
    'run',
    ...(values.sim ? ['--sim'] : []),
    ...(values.stream ? ['--stream'] : []),
  ];
  args.push(workload.suitesDir);
  args.push('--config', workload.config);
  args.push('--concurrency', values.concurrency, '--report-dir', join(root, 'reports'));
  args.push('--baseline-dir', join(root, 'baselines'));
  const m = await measureNode(args, { cwd: root, env: benchEnv(benchKeys()), tmp: root });
  process.stderr.write(
    `driftcheck run (profiled) of ${size} cases: exit ${m.code}, ${(m.wallMs / 1000).toFixed(2)} s, ` +
      `CPU ${(m.cpuMs / 1000).toFixed(2)} s, peak RSS ${m.peakRssMb?.toFixed(0)} MB\n`,
  );
  const written = (await readdir(outDir)).filter((f) => !before.has(f));
  for (const file of written) {
    const path = join(outDir, file);
    for (const by of ['package', 'function']) {
      process.stdout.write(`\n== ${path} (by ${by})\n`);
      const summary = await measureNode(
        [join(REPO, 'bench/profile-summary.mjs'), path, '--by', by, '--top', '25'],
        {
          cwd: REPO,
          env: process.env,
          tmp: root,
          keepOutput: 20000,
        },
      );
      process.stdout.write(summary.stdout);
    }
  }
} finally {
  await sim.stop();
  await rm(root, { recursive: true, force: true });
}
