import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DriftcheckError, FileError } from '../util/errors.js';
import { NOT_WRITTEN_BY_DRIFTCHECK, shapeProblem } from '../stored/shape.js';
import type { SkippedSuite } from '../stored/report/types.js';
import { writeFileAtomic } from '../util/atomic.js';
import { READ_LIMITS, readBoundedText } from '../util/bounded-read.js';
import type { Candidate } from './candidate-fit.js';
import { newRunId, type RunMeta } from './meta.js';
import type { PlanOptions } from '../stored/journal/records.js';

/** The file in a comparison folder that says what the comparison is made of. */
const CANDIDATES_FILE = 'candidates.json';

/**
 * `reports/compare-<first>-<last>/candidates.json`: the candidates of one `run
 * --models`/`--providers` command and the run each is made in, written before the first
 * is sent. A command stopped part-way (a signal, a kill) leaves it, so `run --resume` of
 * the folder — or of any of its runs, whose run.json names the folder — finishes every
 * candidate and rebuilds compare.*.
 */
export interface CandidatesFile {
  version: 1;
  flag: '--models' | '--providers';
  /** What every candidate's run shares: the command's run.json before the candidate's plan. */
  meta: Omit<RunMeta, 'id' | 'started_at'>;
  /** The `--reference` run, relative to the comparison folder; null: the current baseline. */
  reference: string | null;
  candidates: CandidateEntry[];
}

export interface CandidateEntry {
  /** The candidate's column: its model, or its provider slug. */
  label: string;
  /** The run it is made in (`reports/<run_id>`), named before the command's first run starts. */
  run_id: string;
  candidate: Candidate;
  /** Its run's plan: the command's, with the candidate and the suites it skips. */
  plan: PlanOptions;
  skipped: SkippedSuite[];
}

/**
 * Run ids for the candidates of one command, taken when it starts, a millisecond apart in
 * candidate order: the comparison folder is named by them before any run is made, and
 * name order stays the order the runs start in.
 */
export function candidateRunIds(count: number, now: Date): string[] {
  return Array.from({ length: count }, (_, i) => newRunId(new Date(now.getTime() + i)));
}

export async function writeCandidatesFile(dir: string, file: CandidatesFile): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(join(dir, CANDIDATES_FILE), `${JSON.stringify(file, null, 2)}\n`);
}

/** Whether a folder is a comparison `run --resume` can finish. */
export function isComparisonFolder(dir: string): boolean {
  return existsSync(join(dir, CANDIDATES_FILE));
}

/** A comparison folder's candidates.json, checked against its shape (stored/schemas.ts). */
async function readCandidatesFile(dir: string): Promise<CandidatesFile> {
  const path = join(dir, CANDIDATES_FILE);
  let value: unknown;
  try {
    value = JSON.parse(await readBoundedText(path, READ_LIMITS.candidatesFile));
  } catch (error) {
    if (error instanceof DriftcheckError) throw error;
    throw new FileError(path, 'unreadable; pass the comparison folder `run --models` wrote under reports/', {
      cause: error,
    });
  }
  const problem = shapeProblem('candidates-file', value);
  if (problem !== null)
    throw new FileError(
      path,
      `not a candidates.json driftcheck wrote: ${problem}; ${NOT_WRITTEN_BY_DRIFTCHECK}`,
    );
  return value as CandidatesFile;
}

/**
 * The comparison a `run --resume` target belongs to: the folder itself when it is one, or
 * the folder a candidate run's run.json names (beside the run); null for any other run.
 */
export async function comparisonOf(
  target: string,
  meta: () => Promise<Pick<RunMeta, 'comparison'>>,
): Promise<{ dir: string; file: CandidatesFile } | null> {
  if (isComparisonFolder(target)) return { dir: target, file: await readCandidatesFile(target) };
  const name = (await meta()).comparison;
  if (!name) return null;
  const dir = join(dirname(target), basename(name));
  // The comparison folder was removed: the run is resumed alone.
  if (!isComparisonFolder(dir)) return null;
  return { dir, file: await readCandidatesFile(dir) };
}
