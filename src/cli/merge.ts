import { mkdir } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import { buildReport } from '../report/build.js';
import { renderConsoleSummary } from '../report/console.js';
import { type MergedRuns, mergeRuns } from '../report/merge.js';
import { loadSuites } from '../suite/load.js';
import type { Suite } from '../types.js';
import { existsSync } from 'node:fs';
import { writeReportFiles } from '../report/outputs.js';
import { newRunId } from '../run/meta.js';
import { loadBaselines } from '../run/run-suites.js';
import type { CliIO } from './io.js';
import { parseReporters, publishSummary } from './outputs.js';
import { readReportAt } from './report-file.js';

/**
 * `driftcheck merge REPORT… --out DIR`: one report from shard reports, re-diffed against
 * baselines/, so its verdict and exit code are those an unsharded run would have had.
 */
export async function mergeCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { out: { type: 'string' }, 'baseline-dir': { type: 'string' }, reporter: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (!values.out || positionals.length === 0) {
    throw new UsageError(
      'usage: driftcheck merge REPORT… --out DIR (run folders or report.json files of the shards)',
    );
  }
  const reporters = parseReporters(values.reporter);
  const reports = await Promise.all(positionals.map((p) => readReportAt(resolve(io.cwd, p))));
  const merged = mergeRuns(reports, newRunId(new Date()), ['driftcheck', 'merge', ...args]);
  const duplicates = merged.problems.filter((p) => p.includes(' is in both run '));
  if (duplicates.length) throw new UsageError(`${duplicates.join('\n')}\n  → pass each shard's report once`);
  for (const problem of merged.problems) io.stderr(`driftcheck merge: warning: ${problem}\n`);

  const baselineDir = resolve(io.cwd, values['baseline-dir'] ?? 'baselines');
  const suites = await withTolerances(merged.suites, io.cwd);
  const baselines = await loadBaselines(baselineDir, merged.suites);
  const report = buildReport({
    run: merged.run,
    stop: merged.stop,
    suites,
    results: merged.results,
    baselines,
    complete: merged.complete,
    diff: { candidate: merged.run.candidate_model !== null },
  });
  const outDir = resolve(io.cwd, values.out);
  await mkdir(outDir, { recursive: true });
  const files = await writeReportFiles(outDir, report, reporters, (t) => t, { baselines });
  if (reporters.has('console')) io.stdout(renderConsoleSummary(report, { color: io.color }));
  await publishSummary(io, outDir, reporters);
  io.stderr(`merged ${reports.length} report(s): ${files.map((f) => relative(io.cwd, f)).join(' · ')}\n`);
  return report.run.exit_code;
}

/**
 * The suites' own `drift:` tolerances decide drift as they did in the shards: read them
 * from the suite files when the merge runs in the repository checkout. Without the files
 * the defaults apply.
 */
async function withTolerances(
  suites: MergedRuns['suites'],
  cwd: string,
): Promise<(MergedRuns['suites'][number] & Partial<Pick<Suite, 'drift' | 'cases'>>)[]> {
  const files = [...new Set(suites.map((s) => resolve(cwd, s.file)))].filter((f) => existsSync(f));
  const loaded = files.length ? await loadSuites(files, { allowAlias: true, cwd }).catch(() => []) : [];
  const byName = new Map(loaded.map((s) => [s.suite, s]));
  return suites.map((s) => {
    const suite = byName.get(s.suite);
    return suite ? { ...s, cases: suite.cases, ...(suite.drift ? { drift: suite.drift } : {}) } : s;
  });
}
