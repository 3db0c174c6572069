import { join } from 'node:path';
import { Resources } from '../util/resources.js';
import { writeCandidatesFile } from '../run/candidates-file.js';
import { simRequestHeaders } from '../sim/protocol.js';
import type { Reporter } from '../fold/reporter.js';
import { writeRunsIndex } from '../report/runs-index/write.js';
import type { ReportHead } from '../stored/report/types.js';
import { type Interrupts, watchInterrupts } from './interrupts.js';
import type { CliIO } from './io.js';
import { projectPaths } from './project.js';
import { runOnce } from './run-once.js';
import { type PlannedComparison, type PlannedRun, planRun, type RunPlan } from './run-plan.js';
import { publishRun, showRun } from './run-publish.js';
import { runReaders } from './run-readers.js';
import { type RunRequest, resolveRun } from './run-request.js';
import { version } from './version.js';

/** What every run of one command shares: its IO, request, plan, interrupt watcher and scope. */
interface Session {
  io: CliIO;
  request: RunRequest;
  plan: RunPlan;
  interrupts: Interrupts;
  scope: Resources;
}

/**
 * `driftcheck run`: the flags resolved into one request, the plan read from the files and
 * services, then its run (or each candidate's) sent, folded and published. What the command
 * holds — the simulator, a reference run, the interrupt watcher, the compared runs — is let
 * go in one place, its scope; each run holds its own (run-once.ts).
 */
export async function runCommand(args: string[], io: CliIO): Promise<number> {
  const request = resolveRun(args, io.env, io.cwd, (config) => projectPaths(io, config));
  return Resources.using(async (scope) => {
    const plan = await planRun(request, runReaders(io, request.baselineDir, scope));
    const interrupts = scope.hold(watchInterrupts(io, request.graceMs), (watch) => watch.dispose());
    const session: Session = { io, request, plan, interrupts, scope };
    if (plan.run) return (await runAndPublish(session, plan.run)).run.exit_code;
    return compareCandidates(session, plan.comparison);
  });
}

/** One run (or resume) from its plan to its printed summary; returns its report's head. */
async function runAndPublish(
  { io, request, plan, interrupts }: Session,
  run: PlannedRun,
  observers: Reporter[] = [],
): Promise<ReportHead> {
  const shown = await showRun(io, request, run);
  const result = await runOnce({
    request,
    plan,
    run,
    hooks: {
      ...shown.hooks,
      version: version(),
      requestHeaders: simRequestHeaders,
      interrupt: interrupts.interrupt,
      abortInFlight: interrupts.abortInFlight,
      observers,
    },
  });
  shown.progress.finish();
  // The next run of the command (`--models`) starts from what this one spent.
  if (plan.costCap && result.spent !== null) plan.costCap.spentBefore = result.spent;
  await publishRun(io, request, plan, result);
  return result.report;
}

/**
 * `--models`, `--providers` (or such a comparison resumed): what it is made of written first
 * (candidates.json), so a command stopped part-way can be finished; then each candidate's
 * run made, resumed, or read as it completed earlier; then all of them side by side.
 */
async function compareCandidates(session: Session, comparison: PlannedComparison): Promise<number> {
  const { io, request, plan, scope } = session;
  const { baselineReference, runCandidates, runReference } = await import('./compare-candidates.js');
  const { liveComparedRun, readComparedRun } = await import('../compare/folded-run.js');
  if (comparison.isNew) await writeCandidatesFile(comparison.dir, comparison.file);
  const runOne = async ({ entry, run, cases }: PlannedComparison['candidates'][number]) => {
    if (!run) {
      io.stderr(`driftcheck: its run ${entry.run_id} completed earlier: compared as it is\n`);
      return scope.hold(await readComparedRun(join(plan.reportDir, entry.run_id)), (side) => side.discard());
    }
    const kept = liveComparedRun((id) => join(plan.reportDir, id), cases);
    await runAndPublish(session, run, [kept.reporter]);
    return scope.hold(kept.side(), (side) => side.discard());
  };
  const against = comparison.reference
    ? runReference(comparison.reference)
    : baselineReference(request.baselineDir);
  return runCandidates(io, comparison, session.interrupts.interrupt, runOne, against).finally(() =>
    writeRunsIndex(plan.reportDir),
  );
}
