// Issue 34's row: what the second YAML reader buys. Suites are read by js-yaml's `load` first
// (src/yaml/fast-read.ts) and by the `yaml` package only when the fast path declines a file
// or finds a problem; `yamlEngine: 'full'` skips the fast path, so every file goes through
// `yaml` with positions, as it would with one reader. Each engine loads the same written
// suites and the config in its own process (bench/yaml-readers-child.mjs), as `driftcheck
// validate` loads them, measured as a whole process like every other row.
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { measureNode, median } from './process.mjs';
import { writeWorkload } from './workload.mjs';

const CHILD = fileURLToPath(new URL('./yaml-readers-child.mjs', import.meta.url));

/**
 * For each of `sizes` written cases (1,000 to a file), `runs` loads with each engine: median
 * wall, CPU and peak RSS, and what `yaml` alone costs against the fast path. The target says
 * whether the second reader still earns its place (issue 34: about 1.5× the CPU or the
 * memory on the largest size); a fast path that quietly hands every file to `yaml` again
 * shows here as about 1×.
 */
export async function measureYamlReaders(ctx, { sizes = [1000, 100000], runs = 3 } = {}) {
  const root = join(ctx.bin, '..', '..');
  const rows = [];
  for (const size of sizes) {
    const dir = join(ctx.dir, `written-${size}`);
    await writeWorkload(dir, size, ctx.simUrl);
    const samples = { auto: [], full: [] };
    // Interleaved, so that other work on the machine weighs on both alike.
    for (let i = 0; i < runs; i++) {
      for (const engine of ['auto', 'full']) {
        const m = await measureNode([CHILD, root, engine, dir], { cwd: dir, env: ctx.env, tmp: ctx.tmp });
        if (m.code !== 0 || m.stdout.trim() !== `${size} cases`)
          throw new Error(
            `reading ${size} cases with ${engine} failed (exit ${m.code}):\n${m.stdout}\n${m.stderr}`,
          );
        ctx.log(
          `read ${size} written cases (${engine}) ${(m.wallMs / 1000).toFixed(2)} s, CPU ${(m.cpuMs / 1000).toFixed(2)} s, ${m.peakRssMb?.toFixed(0)} MB`,
        );
        samples[engine].push(m);
      }
    }
    const summary = (all) => ({
      wallMs: median(all.map((s) => s.wallMs)),
      cpuMs: median(all.map((s) => s.cpuMs ?? NaN)),
      peakRssMb: median(all.map((s) => s.peakRssMb ?? NaN)),
      samples: all.map(({ wallMs, cpuMs, peakRssMb, load1m }) => ({ wallMs, cpuMs, peakRssMb, load1m })),
    });
    rows.push({ size, fast: summary(samples.auto), yamlAlone: summary(samples.full) });
  }
  const largest = rows.reduce((a, b) => (b.size > a.size ? b : a));
  const cpu = largest.yamlAlone.cpuMs / largest.fast.cpuMs;
  const rss = largest.yamlAlone.peakRssMb / largest.fast.peakRssMb;
  return {
    what: 'suites written case by case: js-yaml first, or `yaml` alone',
    readers: rows,
    targets: [
      {
        what: `${largest.size} written cases: \`yaml\` alone / js-yaml first, CPU`,
        value: cpu,
        text: '≥ 1.5× (either)',
        met: cpu >= 1.5 || rss >= 1.5,
      },
      { what: `${largest.size} written cases: the same, peak RSS`, value: rss, text: '', met: null },
    ],
  };
}
