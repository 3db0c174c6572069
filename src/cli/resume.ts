import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { UsageError } from '../util/errors.js';
import { readJournalRun } from '../stored/journal/read.js';
import { findResumableRun, type RunMeta } from '../run/meta.js';
import { isComparisonFolder } from '../run/candidates-file.js';

/**
 * The run folder `run … --resume` continues. `--resume` is a flag, so what follows it is a
 * positional like any other, and a positional is read by what it is, never by its place:
 *
 * - a run folder (it holds a journal or a run.json): `run --resume reports/<id>` continues it;
 * - a comparison folder of `run --models`/`--providers` (it holds candidates.json):
 *   `run --resume reports/compare-…` finishes every candidate (run-plan.ts);
 * - suites (files or folders): `run suites --resume`, the nightly's own command line with
 *   `--resume` appended, continues the newest unfinished run of exactly those suites;
 * - nothing: the newest unfinished run under the report folder.
 */
export async function resumeTarget(
  positionals: readonly string[],
  cwd: string,
  reportDir: string,
): Promise<string> {
  const where = relative(cwd, reportDir) || '.';
  const paths = positionals.map((p) => resolve(cwd, p));
  for (const path of paths)
    if (!existsSync(path))
      throw new UsageError(
        `--resume: ${relative(cwd, path)} does not exist\n  → pass a run folder under ${where}/, the suites of the run, or --resume alone for the newest unfinished run`,
      );
  const runs = paths.filter((p) => isRunFolder(p) || isComparisonFolder(p));
  if (runs.length > 0) {
    if (paths.length > 1)
      throw new UsageError(
        `--resume takes one run folder (${relative(cwd, runs[0]!) || '.'}) and no suites: a resumed run plans the suites it started with`,
      );
    if (isComparisonFolder(runs[0]!)) return runs[0]!;
    const run = await readJournalRun(join(runs[0]!, 'results.jsonl'));
    if (run?.recheck)
      throw new UsageError(
        `--resume: ${relative(cwd, runs[0]!) || '.'} is a recheck of run ${run.recheck.of}: it sends nothing, so there is nothing to resume
  → resume run ${run.recheck.of} itself, or recheck it again`,
      );
    return runs[0]!;
  }
  const dir = await findResumableRun(
    reportDir,
    paths.length ? (meta) => sameSuites(meta, paths, cwd) : undefined,
  );
  if (dir) return dir;
  throw new UsageError(
    paths.length
      ? `--resume: no paused or interrupted run of ${positionals.join(' ')} under ${where}/\n  → pass the run folder (${where}/<run-id>), or run the suites afresh without --resume`
      : `--resume: no paused or interrupted run under ${where}/\n  → pass the run folder (${where}/<run-id>), or run the suites afresh without --resume`,
  );
}

/** A run folder: what a run writes first (run.json) or its journal. */
function isRunFolder(path: string): boolean {
  return existsSync(join(path, 'run.json')) || existsSync(join(path, 'results.jsonl'));
}

/** The run was started on the same suites: its paths and these name the same files and folders. */
function sameSuites(meta: RunMeta, paths: readonly string[], cwd: string): boolean {
  const key = (list: readonly string[]) => [...new Set(list.map((p) => resolve(cwd, p)))].sort().join('\n');
  return key(meta.paths) === key(paths);
}
