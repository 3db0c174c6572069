// The scale rows of issue 12: memory and report size that must stay flat in samples and
// bounded in cases, each measured through the CLI as a whole process.
/* global document, performance */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { measureNode } from './process.mjs';
import { timeToInteractive } from './page-timing.mjs';
import { writeTableWorkload, writeWorkload } from './workload.mjs';

/** Paths of the run folders (`<report-dir>/<run-id>/`) under `reportDir`. */
async function runDirs(reportDir) {
  const entries = await readdir(reportDir, { withFileTypes: true });
  return entries.filter((e) => e.isDirectory()).map((e) => join(reportDir, e.name));
}

async function sizeMb(file) {
  return (await stat(file).catch(() => ({ size: NaN }))).size / 2 ** 20;
}

/** `driftcheck run` as a whole process; throws on any other exit code than `expect` (0). */
async function run(ctx, args, what, expect = 0) {
  const m = await measureNode([ctx.bin, ...args], { cwd: ctx.dir, env: ctx.env, tmp: ctx.tmp });
  if (m.code !== expect) throw new Error(`${what} failed (exit ${m.code}):\n${m.stdout}\n${m.stderr}`);
  ctx.log(`${what.padEnd(44)} ${(m.wallMs / 1000).toFixed(2)} s  ${m.peakRssMb?.toFixed(0)} MB`);
  return m;
}

/**
 * (a) `cases` cases at `--repeat low` against `--repeat high`: peak RSS and the sizes of
 * report.json and report.html. Targets: RSS within 1.3×, each size within 2×.
 */
export async function measureRepeats(ctx, { cases = 1000, low = 10, high = 100 } = {}) {
  const workload = await writeWorkload(ctx.dir, cases, ctx.simUrl);
  const one = async (repeat) => {
    const reportDir = join(ctx.dir, `reports-r${repeat}`);
    const args = ['run', workload.suitesDir, '--config', workload.config, '--repeat', String(repeat)];
    args.push('--report-dir', reportDir, '--baseline-dir', join(ctx.dir, 'baselines'));
    const m = await run(ctx, args, `${cases} cases × --repeat ${repeat}`);
    const [dir] = await runDirs(reportDir);
    const out = {
      repeat,
      wallMs: m.wallMs,
      cpuMs: m.cpuMs,
      peakRssMb: m.peakRssMb,
      reportJsonMb: await sizeMb(join(dir, 'report.json')),
      reportHtmlMb: await sizeMb(join(dir, 'report.html')),
    };
    await rm(reportDir, { recursive: true, force: true });
    return out;
  };
  const lo = await one(low);
  const hi = await one(high);
  const ratio = (key) => hi[key] / lo[key];
  return {
    what: `${cases} cases, --repeat ${high} against --repeat ${low}`,
    low: lo,
    high: hi,
    targets: [
      target(`peak RSS ×${high} / ×${low}`, ratio('peakRssMb'), '≤ 1.3×', (r) => r <= 1.3),
      target(`report.json ×${high} / ×${low}`, ratio('reportJsonMb'), '≤ 2×', (r) => r <= 2),
      target(`report.html ×${high} / ×${low}`, ratio('reportHtmlMb'), '≤ 2×', (r) => r <= 2),
    ],
  };
}

/**
 * (c) `shards` shard runs of `perShard` cases each (`--shard i/N`, each in its own
 * report folder), then `driftcheck merge` of their run folders, measured. Target: peak RSS ≤ 200 MB.
 */
export async function measureMerge(ctx, { shards = 10, perShard = 10000 } = {}) {
  const workload = await writeWorkload(ctx.dir, shards * perShard, ctx.simUrl);
  const shardDirs = [];
  for (let i = 1; i <= shards; i++) {
    const reportDir = join(ctx.dir, 'shards', String(i));
    const args = ['run', workload.suitesDir, '--config', workload.config, '--shard', `${i}/${shards}`];
    args.push('--report-dir', reportDir, '--baseline-dir', join(ctx.dir, 'baselines'));
    await run(ctx, args, `shard ${i}/${shards}`);
    shardDirs.push(...(await runDirs(reportDir)));
  }
  const out = join(ctx.dir, 'merged');
  const m = await run(ctx, ['merge', ...shardDirs, '--out', out], `merge of ${shards} shards × ${perShard}`);
  const merged = { reportJsonMb: await sizeMb(join(out, 'report.json')) };
  await rm(join(ctx.dir, 'shards'), { recursive: true, force: true });
  await rm(out, { recursive: true, force: true });
  return {
    what: `merge of ${shards} shards of ${perShard} cases`,
    merge: { wallMs: m.wallMs, cpuMs: m.cpuMs, peakRssMb: m.peakRssMb, ...merged },
    targets: [target('merge peak RSS (MB)', m.peakRssMb, '≤ 200 MB', (v) => v <= 200)],
  };
}

/**
 * (d) Issue 19: `cases` instant cases of which `failing` fail a check, every report written:
 * the sizes of report.html, report.json (against the journal's), junit.xml, and the time
 * until report.html is interactive in headless Chromium from file://. Targets: report.html
 * ≤ 25 MB and interactive within 3 s, report.json no larger than the journal, junit.xml ≤ 15 MB.
 */
export async function measureReports(ctx, { cases = 100000, failing = 100 } = {}) {
  const workload = await writeWorkload(ctx.dir, cases, ctx.simUrl, { failing });
  const reportDir = join(ctx.dir, 'reports');
  const args = ['run', workload.suitesDir, '--config', workload.config];
  args.push('--reporter', 'json,html,junit', '--report-dir', reportDir);
  args.push('--baseline-dir', join(ctx.dir, 'baselines'));
  // Failing checks end the run with exit 1 (regressions): what the row is about.
  const m = await run(ctx, args, `${cases} cases, ${failing} failing, every report`, failing > 0 ? 1 : 0);
  const [dir] = await runDirs(reportDir);
  const page = await timeToInteractive(join(dir, 'report.html'));
  const out = {
    wallMs: m.wallMs,
    peakRssMb: m.peakRssMb,
    reportHtmlMb: await sizeMb(join(dir, 'report.html')),
    reportJsonMb: await sizeMb(join(dir, 'report.json')),
    journalMb: await sizeMb(join(dir, 'results.jsonl')),
    junitMb: await sizeMb(join(dir, 'junit.xml')),
    interactiveMs: page.readyMs,
    pageScriptMs: page.scriptMs,
  };
  ctx.log(
    `report.html ${out.reportHtmlMb.toFixed(1)} MB (interactive ${out.interactiveMs.toFixed(0)} ms), report.json ${out.reportJsonMb.toFixed(1)} MB (journal ${out.journalMb.toFixed(1)} MB), junit.xml ${out.junitMb.toFixed(1)} MB`,
  );
  await rm(reportDir, { recursive: true, force: true });
  return {
    what: `${cases} cases of which ${failing} fail`,
    reports: out,
    targets: [
      target('report.html (MB)', out.reportHtmlMb, '≤ 25 MB', (v) => v <= 25),
      target('report.html interactive (ms)', out.interactiveMs, '≤ 3000 ms', (v) => v <= 3000),
      target('report.json / journal', out.reportJsonMb / out.journalMb, '≤ 1×', (v) => v <= 1),
      target('junit.xml (MB)', out.junitMb, '≤ 15 MB', (v) => v <= 15),
    ],
  };
}

/**
 * (e) Issue 19: memory flat in the number of cases. For each source — `yaml` (files of
 * 1,000 written cases) and `jsonl` (one suite, one table) — and each of `sizes`: `validate`,
 * a first run (no baselines), `--update-baselines`, then a run with them; the peak RSS of
 * each. Targets at the largest size: runs ≤ 200 MB and within 1.3× of the smallest size's,
 * validate ≤ 150 MB; and `small` cases (a first run) ≤ 100 MB. Then, for each of `beyond`
 * (larger still; a table workload past 100,000 rows is several table suites), a first run
 * and its peak against the largest size's: no target, it shows whether the peak still
 * grows with the cases past the sizes the targets name.
 */
export async function measureMemory(
  ctx,
  { sizes = [10000, 100000], beyond = [], small = 1000, runs = 1 } = {},
) {
  const rows = [];
  const median = (args, what) => medianRun(ctx, args, what, runs);
  const measure = async (source, size, only = ['validate', 'first', 'baselines']) => {
    const dir = join(ctx.dir, `${source}-${size}`);
    const write = source === 'jsonl' ? writeTableWorkload : writeWorkload;
    const workload = await write(dir, size, ctx.simUrl);
    const common = ['--config', workload.config, '--report-dir', join(dir, 'reports')];
    common.push('--baseline-dir', join(dir, 'baselines'));
    const row = { source, size };
    if (only.includes('validate'))
      row.validate = await median(
        ['validate', workload.suitesDir, '--config', workload.config],
        `validate ${source} ${size}`,
      );
    if (only.includes('first'))
      row.first = await median(['run', workload.suitesDir, ...common], `run ${source} ${size}, first`);
    if (only.includes('baselines')) {
      await run(
        ctx,
        ['run', workload.suitesDir, ...common, '--update-baselines'],
        `run ${source} ${size}, accept`,
      );
      row.baselines = await median(
        ['run', workload.suitesDir, ...common],
        `run ${source} ${size}, baselines`,
      );
    }
    await rm(dir, { recursive: true, force: true });
    for (const k of ['validate', 'first', 'baselines'])
      if (row[k]) {
        const { wallMs, cpuMs, peakRssMb, peakRssRangeMb } = row[k];
        row[k] = { wallMs, cpuMs, peakRssMb, ...(peakRssRangeMb ? { peakRssRangeMb } : {}) };
      }
    rows.push(row);
    return row;
  };
  const targets = [];
  const smallRow = await measure('yaml', small, ['first']);
  targets.push(
    target(`${small} cases, first run: peak RSS (MB)`, smallRow.first.peakRssMb, '≤ 100 MB', (v) => v <= 100),
  );
  const lo = Math.min(...sizes);
  const hi = Math.max(...sizes);
  for (const source of ['yaml', 'jsonl']) {
    const low = await measure(source, lo);
    const high = await measure(source, hi);
    for (const k of ['first', 'baselines']) {
      const what = `${hi} ${source} cases, ${k === 'first' ? 'first run' : 'with baselines'}`;
      targets.push(target(`${what}: peak RSS (MB)`, high[k].peakRssMb, '≤ 200 MB', (v) => v <= 200));
      targets.push(
        target(
          `${what}: peak RSS / at ${lo}`,
          high[k].peakRssMb / low[k].peakRssMb,
          '≤ 1.3×',
          (r) => r <= 1.3,
        ),
      );
    }
    targets.push(
      target(
        `validate ${hi} ${source} cases: peak RSS (MB)`,
        high.validate.peakRssMb,
        '≤ 150 MB',
        (v) => v <= 150,
      ),
    );
    for (const size of beyond.filter((n) => n > hi)) {
      const larger = await measure(source, size, ['first']);
      const ratio = larger.first.peakRssMb / high.first.peakRssMb;
      targets.push(
        target(`${size} ${source} cases, first run: peak RSS / at ${hi}`, ratio, '(no target)', () => null),
      );
    }
  }
  return { what: 'memory in the number of cases', memory: rows, targets };
}

/**
 * One command run `runs` times: the run of median peak RSS, with the range of the peaks. One
 * run's peak moves by ±20 MB with what V8 decides, which a single run cannot tell from a change.
 */
async function medianRun(ctx, args, what, runs, before = async () => {}) {
  const all = [];
  for (let i = 0; i < runs; i++) {
    await before();
    all.push(await run(ctx, args, runs > 1 ? `${what} (${i + 1}/${runs})` : what));
  }
  const peaks = all.map((m) => m.peakRssMb).sort((a, b) => a - b);
  const middle = all.find((m) => m.peakRssMb === peaks[Math.floor((peaks.length - 1) / 2)]);
  return runs > 1 ? { ...middle, peakRssRangeMb: [peaks[0], peaks[peaks.length - 1]] } : middle;
}

/**
 * (f) Comparing models on a large table: `cases` rows (one JSONL suite) accepted as
 * baselines, then `run --models` of two candidates (each run, then the comparison written
 * beside them), then `driftcheck compare` of those two runs; the peak RSS and wall time of
 * each, the sizes of compare.json and compare.html, and the page's time until it is usable
 * in headless Chromium. No target of its own: the figures show whether comparing stays
 * flat in the number of cases as a run does.
 */
export async function measureCompare(ctx, { cases = 100000, runs = 1 } = {}) {
  const workload = await writeTableWorkload(ctx.dir, cases, ctx.simUrl);
  const reportDir = join(ctx.dir, 'reports');
  const common = ['--config', workload.config, '--report-dir', reportDir];
  common.push('--baseline-dir', join(ctx.dir, 'baselines'));
  await run(ctx, ['run', workload.suitesDir, ...common, '--update-baselines'], `run ${cases} rows, accept`);
  // The yardstick is what each candidate's run is: one run against the baselines.
  const one = await medianRun(ctx, ['run', workload.suitesDir, ...common], `run ${cases} rows`, runs);
  // Each --models run leaves its candidates' runs and their comparison: only the last is compared below.
  const models = await medianRun(
    ctx,
    ['run', workload.suitesDir, ...common, '--models', 'openai/gpt-4o-mini,openai/gpt-4o'],
    `run --models of 2 over ${cases} rows`,
    runs,
    () => rm(reportDir, { recursive: true, force: true }),
  );
  const dirs = (await runDirs(reportDir)).filter((d) => !/[/\\]compare-/.test(d)).sort();
  const out = join(ctx.dir, 'compared');
  const compared = await run(
    ctx,
    ['compare', ...dirs, '--baseline-dir', join(ctx.dir, 'baselines'), '--out', out],
    `compare of 2 runs × ${cases}`,
  );
  const page = await compareInteractive(join(out, 'compare.html'));
  const figures = {
    models: { wallMs: models.wallMs, cpuMs: models.cpuMs, peakRssMb: models.peakRssMb },
    compare: { wallMs: compared.wallMs, cpuMs: compared.cpuMs, peakRssMb: compared.peakRssMb },
    compareJsonMb: await sizeMb(join(out, 'compare.json')),
    compareHtmlMb: await sizeMb(join(out, 'compare.html')),
    interactiveMs: page,
  };
  ctx.log(
    `compare.json ${figures.compareJsonMb.toFixed(1)} MB, compare.html ${figures.compareHtmlMb.toFixed(1)} MB (usable ${page.toFixed(0)} ms)`,
  );
  await rm(reportDir, { recursive: true, force: true });
  await rm(out, { recursive: true, force: true });
  return {
    what: `two candidates compared over ${cases} table rows`,
    compare: figures,
    // Issue 36: N candidates within 1.2× of one run's peak (a run against the same baselines; medians with --compare-runs).
    targets: [
      target(
        'peak RSS, run --models of 2 / one run',
        models.peakRssMb / one.peakRssMb,
        '≤ 1.2×',
        (v) => v <= 1.2,
      ),
    ],
  };
}

/**
 * Issue 36's `recheck` row: one run of `cases` table rows, then `report` and `recheck` of it
 * (today's checks on its stored answers), each a whole process. Targets: recheck's peak RSS
 * ≤ 200 MB, and no slower than `report` of the same run.
 */
export async function measureRecheck(ctx, { cases = 100000 } = {}) {
  const workload = await writeTableWorkload(ctx.dir, cases, ctx.simUrl);
  const reportDir = join(ctx.dir, 'reports');
  const common = ['--config', workload.config, '--baseline-dir', join(ctx.dir, 'baselines')];
  await run(ctx, ['run', workload.suitesDir, ...common, '--report-dir', reportDir], `run ${cases} rows`);
  const [dir] = await runDirs(reportDir);
  const baselines = ['--baseline-dir', join(ctx.dir, 'baselines')];
  const report = await run(ctx, ['report', dir, ...baselines], `report of ${cases} rows`);
  const out = join(ctx.dir, 'rechecked');
  const recheck = await run(
    ctx,
    ['recheck', dir, workload.suitesDir, ...common, '--report-dir', out],
    `recheck of ${cases} rows`,
  );
  await rm(reportDir, { recursive: true, force: true });
  await rm(out, { recursive: true, force: true });
  const shown = (m) => ({ wallMs: m.wallMs, cpuMs: m.cpuMs, peakRssMb: m.peakRssMb });
  return {
    what: `recheck of a run of ${cases} table rows`,
    recheck: { report: shown(report), recheck: shown(recheck) },
    targets: [
      target('peak RSS, recheck (MB)', recheck.peakRssMb, '≤ 200 MB', (v) => v <= 200),
      target('wall, recheck / report', recheck.wallMs / report.wallMs, '≤ 1×', (v) => v <= 1),
    ],
  };
}

/** ms from navigation start until compare.html's matrix shows rows and its search is enabled. */
async function compareInteractive(file) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  try {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(file).href, { timeout: 300_000 });
    await page.waitForFunction(
      () => !document.getElementById('q').disabled && document.querySelectorAll('#rows tr').length > 0,
      null,
      { timeout: 300_000 },
    );
    return await page.evaluate(() => performance.now());
  } finally {
    await browser.close();
  }
}

function target(what, value, text, ok) {
  return { what, value, text, met: value === null || Number.isNaN(value) ? null : ok(value) };
}
