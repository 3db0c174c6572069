import { stat } from 'node:fs/promises';
import { FileError } from '../errors.js';
import type { FoldOptions } from '../fold/fold.js';
import { candidateLabel } from '../fold/provenance.js';
import { foldRunDirs } from '../fold/run-dirs.js';
import { openReport } from '../report/read.js';
import type { Reporter } from '../report/reporter.js';
import type { CaseEntry, ReportHead } from '../types.js';

/**
 * A folded run, read-only: its head (run, counts, suites) and every case entry in plan
 * order, as the fold made them. The one shape comparisons take, whether the run was just
 * folded live (collectFoldedRun) or is read back from its folder (readFoldedRun).
 */
export interface FoldedRun {
  /** The run folder, when the run has one on disk. */
  readonly dir: string | null;
  readonly head: Readonly<ReportHead>;
  readonly cases: readonly Readonly<CaseEntry>[];
}

/**
 * A run folder (or its report.json) as a FoldedRun. A path that is not there is named in
 * a FileError (exit 2); the report reader's own errors say how to re-render a bad one.
 */
export async function readFoldedRun(path: string): Promise<FoldedRun> {
  if (!(await stat(path).catch(() => null)))
    throw new FileError(path, 'no such run folder; pass the folder of a run under reports/');
  const stored = await openReport(path);
  const cases: CaseEntry[] = [];
  for await (const c of stored.cases()) cases.push(c);
  return { dir: path.replace(/[/\\]report\.json$/, ''), head: stored.head, cases };
}

/** A run as a column's head: its candidate, else its id. */
export function runLabel(run: FoldedRun): string {
  return candidateLabel(run.head.run) ?? run.head.run.id ?? (run.dir?.split(/[/\\]/).pop() || 'run');
}

/**
 * A reporter that keeps what the live fold hands out, so a run just made is compared from
 * the same entries its report.json was written from, without reading the file back.
 */
export function collectFoldedRun(): { reporter: Reporter; result: (dir: string) => FoldedRun } {
  const cases: CaseEntry[] = [];
  let head: ReportHead | null = null;
  return {
    reporter: {
      // A case at a time: a reporter asking for whole suites (onSuite) makes the fold gather
      // them and parse the suite's whole baseline for it, which a comparison never reads.
      onCase: ({ entry }) => {
        cases.push(entry);
      },
      onEnd: (finished) => {
        head = finished;
        return Promise.resolve([]);
      },
    },
    result: (dir) => {
      if (!head) throw new Error('collectFoldedRun: the fold has not finished');
      return { dir, head, cases };
    },
  };
}

/**
 * A run folder without report.json (a run killed before it wrote it) folded from its
 * journal, diffed against the baselines given, as `driftcheck report` would render it.
 */
export async function foldJournalRun(dir: string, baseline: FoldOptions['baseline']): Promise<FoldedRun> {
  const kept = collectFoldedRun();
  await foldRunDirs([dir], { baseline, reporters: [kept.reporter], renderedBy: 'report' });
  return kept.result(dir);
}
