import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../util/errors.js';
import { isRegressed } from '../core/words.js';
import { countOf, groupDigits } from '../util/numbers.js';
import { openReport } from '../stored/report/read.js';
import { type RunMeta, readRunMeta } from '../run/meta.js';
import type { PlanOptions } from '../stored/journal/records.js';

/**
 * The most cases `run --failed` re-runs: their ids are kept in the new run's run.json (what a
 * `--resume` re-plans from), which is read back within 1 MiB. A night where more failed is
 * better run again whole.
 */
const MAX_FAILED_CASES = 10_000;

/** What `run --failed RUN_DIR` takes from that run. */
export interface FailedCases {
  /** The run's id, as its report names it. */
  runId: string;
  /** `suite/case` of every case that failed, errored or regressed, in report order. */
  cases: string[];
  /** How many of them failed, errored, or only regressed (passing or not run). */
  counts: { failed: number; errored: number; regressed: number; of: number };
  /** How the run chose its suites and answers (its run.json), or null for a folder without one (a merge). */
  meta: RunMeta | null;
}

/**
 * The cases of a finished run that failed, errored or regressed (the fold's isRegressed: a
 * drift of severity fail), read from its report.json a case at a time. None is a usage error:
 * a run of nothing is not a pass.
 */
export async function failedCases(runDir: string, shown: string): Promise<FailedCases> {
  const report = await openReport(runDir);
  const cases: string[] = [];
  const counts = { failed: 0, errored: 0, regressed: 0, of: 0 };
  for await (const c of report.cases()) {
    counts.of++;
    if (c.status === 'fail') counts.failed++;
    else if (c.status === 'error') counts.errored++;
    else if (isRegressed(c)) counts.regressed++;
    else continue;
    cases.push(`${c.suite}/${c.case}`);
  }
  const runId = report.head.run.id;
  if (cases.length === 0)
    throw new UsageError(
      `nothing to run: no case of run ${runId} (${shown}) failed, errored or regressed (${countOf(counts.of, 'case')})\n  → run the suites again without --failed`,
    );
  if (cases.length > MAX_FAILED_CASES)
    throw new UsageError(
      `--failed: ${countOf(cases.length, 'case')} of run ${runId} failed, errored or regressed; it re-runs at most ${groupDigits(MAX_FAILED_CASES)}\n  → run the suites again (narrow them with --filter)`,
    );
  const meta = existsSync(join(runDir, 'run.json')) ? await readRunMeta(runDir) : null;
  return { runId, cases, counts, meta };
}

/**
 * What a re-run takes of the run it re-runs: the answers it asked for (candidate model or
 * provider, the suites a candidate skipped, the service it forced, its repeats), unless the
 * command line says otherwise. Its filter and shard are not taken: the ids already lie within them.
 */
export function inheritedPlan(
  meta: RunMeta | null,
  given: { candidate: boolean; service: boolean; repeat: boolean },
): PlanOptions {
  const plan = meta?.plan ?? {};
  return {
    ...(!given.candidate && plan.model ? { model: plan.model } : {}),
    ...(!given.candidate && plan.provider ? { provider: plan.provider } : {}),
    ...(!given.candidate && plan.skip?.length ? { skip: plan.skip } : {}),
    ...(!given.service && plan.service ? { service: plan.service } : {}),
    ...(!given.repeat && plan.repeat !== undefined ? { repeat: plan.repeat } : {}),
  };
}

/** The line `run --failed` prints before it runs: how many, of what, from which run. */
export function failedLine(failed: FailedCases, shown: string): string {
  const { failed: f, errored, regressed, of } = failed.counts;
  const parts = [f && `${f} failed`, errored && `${errored} errored`, regressed && `${regressed} regressed`]
    .filter(Boolean)
    .join(', ');
  return `driftcheck: --failed ${shown}: running again the ${countOf(failed.cases.length, 'case')} of run ${failed.runId} that failed, errored or regressed (${parts}; ${countOf(of, 'case')} in all)\n`;
}
