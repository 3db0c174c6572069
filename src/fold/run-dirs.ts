import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FileError } from '../errors.js';
import { isLegacyJournal, legacySample, readLegacyRun } from '../journal/legacy.js';
import { readJournal } from '../journal/read.js';
import type { RunRecord } from '../journal/records.js';
import type { Reporter } from '../report/reporter.js';
import type { Baseline, ReportHead, RunInfo, StopReason } from '../types.js';
import { RunFold } from './fold.js';

export interface FoldedRuns {
  head: ReportHead;
  files: string[];
  /** Per run folder: its run record (read from the folder for a journal of driftcheck 0.1) and how it stopped. */
  runs: { dir: string; run: RunRecord | null; stop: StopReason | null }[];
  /** Lines that were not records, per run folder, with their line numbers. */
  skipped: { dir: string; lines: number[] }[];
}

/** Worst first: a configuration stop, an access stop, a budget pause, an interrupt. */
const STOP_RANK: Record<StopReason['kind'], number> = { config: 0, access: 1, paused: 2, interrupted: 3 };

/**
 * Folds the journals of one or more run folders into reports: `driftcheck report` (one
 * folder: a finished, paused or killed run re-rendered), `merge` (the shards of one run)
 * and `diff` (a run against another's answers as its baselines). Each journal is read one
 * line at a time.
 */
export async function foldRunDirs(
  dirs: readonly string[],
  options: {
    baseline: (suite: string) => Promise<{ baseline: Baseline | null; path: string | null }>;
    reporters: readonly Reporter[];
    /** Several shards: whether they are every shard of one plan (decided by the caller). */
    complete?: boolean;
    run?: Partial<Omit<RunInfo, 'status' | 'exit_code' | 'stop_reason'>>;
  },
): Promise<FoldedRuns> {
  const runs: FoldedRuns['runs'] = [];
  const skipped: FoldedRuns['skipped'] = [];
  const streams: { dir: string; file: string }[] = [];
  for (const dir of dirs) {
    const file = join(dir, 'results.jsonl');
    if (!(await stat(file).catch(() => null)))
      throw new FileError(
        file,
        'no journal (results.jsonl) in this folder: pass a run folder under reports/',
      );
    streams.push({ dir, file });
  }
  const fold = new RunFold({
    baseline: options.baseline,
    reporters: options.reporters,
    ...(options.complete !== undefined ? { complete: options.complete } : {}),
    ...(options.run ? { run: options.run } : {}),
    ...(dirs.length > 1 ? { stop: null } : {}),
  });
  for (const { dir, file } of streams) {
    const stats = { skipped: [] as number[] };
    let run: RunRecord | null = null;
    let end: StopReason | null | undefined;
    // A journal of driftcheck 0.1 has samples only: its run, plan and end come from the folder.
    const legacy = (await isLegacyJournal(file)) ? await readLegacyRun(dir) : null;
    if (legacy) {
      run = legacy.run;
      fold.add(legacy.run);
      for (const plan of legacy.plans) fold.add(plan);
    }
    for await (const record of readJournal(file, stats)) {
      if (record.type === 'run') run ??= record;
      else if (record.type === 'end') end = record.stop;
      else if (record.type === undefined) end = undefined;
      fold.add(legacy && record.type === undefined ? legacySample(record) : record);
    }
    if (legacy?.end) {
      end = legacy.end.stop;
      fold.add(legacy.end);
    }
    // No `end` that no sample follows: the run was killed (or is still running).
    runs.push({
      dir,
      run,
      stop: end === undefined ? { kind: 'interrupted', error: null, signal: 'SIGTERM' } : end,
    });
    if (stats.skipped.length) skipped.push({ dir, lines: stats.skipped });
  }
  if (dirs.length > 1) fold.setStop(worstStop(runs.map((r) => r.stop)));
  try {
    const { head, files } = await fold.finish();
    return { head, files, runs, skipped };
  } catch (error) {
    await fold.abort();
    throw error;
  }
}

function worstStop(stops: readonly (StopReason | null)[]): StopReason | null {
  const real = stops.filter((s): s is StopReason => s !== null);
  real.sort((a, b) => STOP_RANK[a.kind] - STOP_RANK[b.kind]);
  return real[0] ?? null;
}
