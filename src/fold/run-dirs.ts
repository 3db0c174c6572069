import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FileError } from '../util/errors.js';
import { exitForStop } from '../core/stops.js';
import { worstExit } from '../util/exit-codes.js';
import { isLegacyJournal, legacySample, readLegacyRun } from '../stored/journal/legacy.js';
import { type JournalReadStats, readJournal } from '../stored/journal/read.js';
import type { JournalRecord, PlanRecord, RunRecord } from '../stored/journal/records.js';
import type { Reporter } from './reporter.js';
import type { Provenance, ReportHead, RunInfo } from '../stored/report/types.js';
import type { StopReason } from '../core/stops.js';
import { type FoldOptions, RunFold } from './fold.js';
import { HeadPlans } from './head-plans.js';
import { KILLED } from './summary.js';

export interface FoldedRuns {
  head: ReportHead;
  files: string[];
  /** Per run folder: its run record (read from the folder for a journal of driftcheck 0.1) and how it stopped. */
  runs: { dir: string; run: RunRecord | null; stop: StopReason | null }[];
  /** Lines that were not records, per run folder, with their line numbers (and what was wrong with those of a record's kind). */
  skipped: { dir: string; lines: number[]; malformed: { line: number; problem: string }[] }[];
}

/**
 * Folds the journals of one or more run folders into reports: `driftcheck report` (one
 * folder: a finished, paused or killed run re-rendered), `merge` (the shards of one run)
 * and `diff` (a run against another's answers as its baselines). Each journal is read one
 * line at a time.
 */
export async function foldRunDirs(
  dirs: readonly string[],
  options: {
    baseline: FoldOptions['baseline'];
    reporters: readonly Reporter[];
    /** Several shards: whether they are every shard of one plan (decided by the caller). */
    complete?: boolean;
    run?: Partial<Omit<RunInfo, 'status' | 'exit_code' | 'stop_reason' | 'provenance'>>;
    /** The command folding them, for the report's provenance. */
    renderedBy: Provenance['rendered_by'];
    /** Messages of cases planned as table rows, made again from their tables (run/plan-messages.ts). */
    messages?: FoldOptions['messages'];
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
    renderedBy: options.renderedBy,
    ...(options.messages ? { messages: options.messages } : {}),
    ...(dirs.length > 1 ? { stop: null } : {}),
  });
  const journals: Journal[] = [];
  for (const { dir, file } of streams) {
    // A journal of driftcheck 0.1 has samples only: its run, plan and end come from the folder.
    const legacy = (await isLegacyJournal(file)) ? await readLegacyRun(dir) : null;
    const journal: Journal = { dir, file, legacy, stats: { skipped: [] }, run: null, end: undefined };
    if (legacy) for (const record of [legacy.run, ...legacy.plans]) take(fold, journal, record);
    journals.push(journal);
  }
  if (journals.some((j) => j.legacy)) {
    // 0.1 journals name their cases only in their samples: every suite stays open to the end.
    for (const journal of journals) {
      for await (const record of readJournal(journal.file, journal.stats)) take(fold, journal, record);
    }
  } else {
    // Every journal's run and plan records first, found wherever they are and kept as
    // references (a plan record holds its cases): the run records are taken and every
    // suite's size is known before the first is folded.
    // Then the samples of all journals side by side, each suite's plans handed over when the
    // read reaches it, so each suite is folded and released once all its shards have
    // passed it, and what is held is the suites still open.
    const plans = await HeadPlans.index(
      journals.map((j) => j.file),
      (i, run) => take(fold, journals[i]!, run),
    );
    const addPlan = (i: number, plan: PlanRecord) => take(fold, journals[i]!, plan);
    const readers: {
      journal: Journal;
      records: AsyncGenerator<JournalRecord>;
      next: JournalRecord | null;
    }[] = [];
    for (const journal of journals) {
      // Plan lines are passed over undecoded: the index has them, and hands them over.
      const records = readJournal(journal.file, journal.stats, { plans: false });
      // next() by hand: leaving a for-await would close the reader its samples still need.
      const next = await records.next();
      readers.push({ journal, records, next: next.done ? null : next.value });
    }
    fold.plansComplete(() => plans.planned());
    for (let active = readers; active.length > 0; active = active.filter((r) => r.next !== null)) {
      for (const reader of active) {
        for (let n = 0; n < INTERLEAVE_LINES && reader.next !== null; n++) {
          const record = reader.next;
          // Run and plan records, wherever they are in a journal, came through the index.
          if (record.type !== 'run' && record.type !== 'plan') {
            if ('suite' in record && plans.waits(record.suite)) await plans.through(record.suite, addPlan);
            take(fold, reader.journal, record);
          }
          const next = await reader.records.next();
          reader.next = next.done ? null : next.value;
        }
      }
      await fold.drained();
    }
    // Suites none of whose samples is in any journal (a run killed before them): not run.
    await plans.through(null, addPlan);
  }
  for (const journal of journals) if (journal.legacy?.end) take(fold, journal, journal.legacy.end);
  for (const journal of journals) {
    runs.push({
      dir: journal.dir,
      run: journal.run,
      // No `end` that no sample follows: the run was killed (or is still running).
      stop: journal.end === undefined ? KILLED : journal.end,
    });
    if (journal.stats.skipped.length)
      skipped.push({
        dir: journal.dir,
        lines: journal.stats.skipped,
        malformed: journal.stats.malformed ?? [],
      });
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

/** Records taken from each journal in one turn of the side-by-side read. */
const INTERLEAVE_LINES = 16;

interface Journal {
  dir: string;
  file: string;
  legacy: Awaited<ReturnType<typeof readLegacyRun>> | null;
  stats: JournalReadStats;
  run: RunRecord | null;
  /** Its last `end`, undefined while none (or a sample after it: a resumed session). */
  end: StopReason | null | undefined;
}

/** One record of one journal into the fold, noting the journal's run and how it ended. */
function take(fold: RunFold, journal: Journal, record: JournalRecord): void {
  if (record.type === 'run') journal.run ??= record;
  else if (record.type === 'end') journal.end = record.stop;
  // A sample or a step after an `end` is a resumed session's: that end no longer holds.
  else if (record.type === undefined || record.type === 'step') journal.end = undefined;
  fold.add(journal.legacy && record.type === undefined ? legacySample(record) : record);
}

/** The stop of several runs whose exit code comes first in the one precedence (exit-codes.ts). */
function worstStop(stops: readonly (StopReason | null)[]): StopReason | null {
  const real = stops.filter((s): s is StopReason => s !== null);
  const worst = worstExit(real.map(exitForStop));
  return real.find((s) => exitForStop(s) === worst) ?? null;
}
