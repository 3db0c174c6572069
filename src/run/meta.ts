import { randomBytes } from 'node:crypto';
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DriftcheckError, FileError } from '../util/errors.js';
import { NOT_WRITTEN_BY_DRIFTCHECK, shapeProblem } from '../stored/shape.js';
import type { RunStatus } from '../core/stops.js';
import { writeFileAtomic } from '../util/atomic.js';
import { READ_LIMITS, readBoundedText } from '../util/bounded-read.js';
import type { CostCap } from './cost-cap.js';
import type { PlanOptions } from '../stored/journal/records.js';

/**
 * `reports/<run-id>/run.json`, written before the first request: everything needed to
 * re-plan the same run on `--resume` (the plan itself is re-derived, never stored).
 */
export interface RunMeta {
  id: string;
  started_at: string;
  command: string[];
  paths: string[];
  config_file: string | null;
  allow_alias: boolean;
  sim: boolean;
  plan: PlanOptions;
  concurrency: number | null;
  update_baselines: boolean;
  /**
   * The cost cap the run started with (`--max-cost`, `max_cost`): a resume holds it, what the
   * run spent counting, unless given a new `--max-cost`. Absent in runs written before it.
   */
  max_cost?: CostCap | null;
  /**
   * The `run --models`/`--providers` comparison this run is a candidate of: the name of its
   * folder beside this one (candidates.json there lists the others), which `run --resume`
   * of this run finishes whole. Absent for any other run.
   */
  comparison?: string;
  /** `--bail N`: stop sending after N failing cases (a resume keeps it). Absent: no limit. */
  bail?: number | null;
}

/** Sortable, filesystem-safe: `20261122T043114123Z-3fa2` (start time to the millisecond, UTC). */
export function newRunId(now: Date): string {
  // Milliseconds included: two runs can start within one second (`--models` runs its
  // candidates back to back), and name order must stay start order (`--resume`, latest).
  const stamp = now.toISOString().replace(/[-:.]/g, '');
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

/** A run folder's name (runs written by earlier versions have no milliseconds). */
export const RUN_ID_PATTERN = /^\d{8}T\d{6}(?:\d{3})?Z-[0-9a-f]{4}$/;

export async function writeRunMeta(runDir: string, meta: RunMeta): Promise<void> {
  await writeFileAtomic(join(runDir, 'run.json'), `${JSON.stringify(meta, null, 2)}\n`);
}

export async function readRunMeta(runDir: string): Promise<RunMeta> {
  const file = join(runDir, 'run.json');
  let meta: unknown;
  try {
    meta = JSON.parse(await readBoundedText(file, READ_LIMITS.runMeta));
  } catch (error) {
    if (error instanceof DriftcheckError) throw error;
    throw new FileError(
      file,
      'not a driftcheck run folder (run.json is missing or unreadable); pass the folder of a run under reports/',
      { cause: error },
    );
  }
  // What a resume re-plans from (stored/schemas.ts); anything else in run.json is taken as written.
  const problem = shapeProblem('run-meta', meta);
  if (problem !== null)
    throw new FileError(
      file,
      `not a run.json driftcheck wrote: ${problem}; ${NOT_WRITTEN_BY_DRIFTCHECK}: pass the folder of a run under reports/, or start the run again`,
    );
  return meta as RunMeta;
}

/**
 * The newest run that did not complete (paused, interrupted, or killed before its
 * report was written) — what `--resume` without a folder continues; with `accept`, the
 * newest such run whose run.json it accepts (`run suites --resume`: a run of those suites).
 */
export async function findResumableRun(
  reportDir: string,
  accept?: (meta: RunMeta) => boolean,
): Promise<string | null> {
  const entries = await readdir(reportDir, { withFileTypes: true }).catch(() => []);
  const runs = entries
    .filter((e) => e.isDirectory() && RUN_ID_PATTERN.test(e.name))
    .map((e) => e.name)
    .sort()
    .reverse();
  for (const id of runs) {
    const dir = join(reportDir, id);
    if (!(await stat(join(dir, 'run.json')).catch(() => null))) continue;
    if ((await runStatusOf(join(dir, 'report.json'))) === 'completed') continue;
    if (!accept || (await readRunMeta(dir).then(accept, () => false))) return dir;
  }
  return null;
}

/**
 * A report's `run.status` without parsing the whole file (100,000 cases make 75 MB): the
 * writer puts the `run` object first, so its head holds the status. Null when unreadable
 * or absent (a run killed before its report was written).
 */
export async function runStatusOf(file: string): Promise<RunStatus | null> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(64 * 1024), position: 0 });
    const head = buffer.subarray(0, bytesRead).toString('utf8');
    return (/"status": "(completed|paused|interrupted)"/.exec(head)?.[1] as RunStatus | undefined) ?? null;
  } finally {
    await handle.close();
  }
}
