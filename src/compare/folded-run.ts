import { stat } from 'node:fs/promises';
import { FileError } from '../util/errors.js';
import type { FoldOptions } from '../fold/fold.js';
import { candidateLabel } from '../fold/provenance.js';
import { foldRunDirs } from '../fold/run-dirs.js';
import { openPublished } from '../fold/published.js';
import type { Reporter } from '../fold/reporter.js';
import { ComparedSide } from './side.js';

/**
 * A run folder (or its report.json) read for a comparison, a case at a time (ComparedSide),
 * through the fold's reader, which adds up the run's totals as it goes. A path that is not
 * there is named in a FileError (exit 2); the report reader's own errors say how to
 * re-render a bad one.
 */
export async function readComparedRun(path: string): Promise<ComparedSide> {
  if (!(await stat(path).catch(() => null)))
    throw new FileError(path, 'no such run folder; pass the folder of a run under reports/');
  const stored = await openPublished(path);
  const side = new ComparedSide(path.replace(/[/\\]report\.json$/, ''), stored.head.summary.cases);
  try {
    for await (const c of stored.cases()) side.add(c);
  } catch (error) {
    await side.discard();
    throw error;
  }
  side.head = stored.head;
  side.totals = stored.totals();
  return side;
}

/** A run as a column's head: its candidate, else its id. */
export function runLabel(side: ComparedSide): string {
  const run = side.head?.run;
  return (run && (candidateLabel(run) ?? run.id)) ?? (side.dir?.split(/[/\\]/).pop() || 'run');
}

/**
 * A reporter that reads for a comparison what the live fold hands out, so a run just made
 * is compared from the same entries its report.json was written from, without reading the
 * file back — and without holding them.
 */
export function liveComparedRun(
  dir: (id: string) => string,
  /** How many cases the run is expected to fold. */
  expected = 0,
): { reporter: Reporter; side: () => ComparedSide } {
  let side: ComparedSide | null = null;
  const pending: ComparedSide = new ComparedSide(null, expected);
  return {
    reporter: {
      // A case at a time: a reporter asking for whole suites (onSuite) makes the fold gather
      // them and parse the suite's whole baseline for it, which a comparison never reads.
      onCase: (c) => {
        pending.add(c);
      },
      onEnd: (finished, totals) => {
        pending.head = finished;
        pending.totals = totals;
        pending.dir = dir(finished.run.id);
        side = pending;
        return Promise.resolve([]);
      },
    },
    side: () => {
      if (!side) throw new Error('liveComparedRun: the fold has not finished');
      return side;
    },
  };
}

/**
 * A run folder without report.json (a run killed before it wrote it) folded from its
 * journal, diffed against the baselines given, as `driftcheck report` would render it.
 */
export async function foldJournalRun(dir: string, baseline: FoldOptions['baseline']): Promise<ComparedSide> {
  const kept = liveComparedRun(() => dir);
  await foldRunDirs([dir], { baseline, reporters: [kept.reporter], renderedBy: 'report' });
  return kept.side();
}
