import { basename, relative } from 'node:path';
import { countOf, formatUsd } from '../util/numbers.js';
import { printable } from '../util/printable.js';
import { exitReason } from '../fold/summary.js';
import { writeRunsIndex } from '../report/runs-index/write.js';
import type { PlanOptions } from '../stored/journal/records.js';
import { promptsMissingTo } from '../run/plan-messages.js';
import { costLine } from './cost-cap.js';
import { exitLine } from './exit-line.js';
import type { CliIO } from './io.js';
import { publishSummary } from './outputs.js';
import { createProgress, type Progress } from './progress.js';
import type { PlanInfo, RunHooks, RunResult } from './run-once.js';
import type { Restarted } from './run-open.js';
import { runOutput } from './run-json.js';
import type { PlannedRun, RunPlanBase } from './run-plan.js';
import type { RunRequest } from './run-request.js';
import { modelStopLines, stopLine, stopServices } from './stop-line.js';

/**
 * How a run shows itself while it goes: the progress line (counts only, redrawn in place with
 * its own escapes), its header once the plan is known, what it is told on the way — each on a
 * line of its own — and the console report (on stderr under `--json`).
 */
export async function showRun(
  io: CliIO,
  request: Pick<RunRequest, 'json'>,
  run: PlannedRun,
): Promise<{ hooks: Omit<RunHooks, 'version'>; progress: Progress }> {
  const progress = createProgress({
    write: io.styled.stderr,
    tty: io.tty,
    columns: io.columns,
    ...(io.tty ? { truncate: (await import('../report/terminal.js')).truncate } : {}),
  });
  /** A line on stderr, never on the progress line. */
  const say = (line: string) => {
    progress.finish();
    io.stderr(line);
  };
  const hooks: Omit<RunHooks, 'version'> = {
    // The console report escapes what it quotes itself, and adds its colours.
    console: {
      write: (text) => {
        progress.finish();
        (request.json ? io.styled.stderr : io.styled.stdout)(text);
      },
      color: io.color,
      ...(io.columns ? { columns: io.columns } : {}),
    },
    onPlan: (info) => {
      io.stderr(planLines(info, run.meta.plan, run.meta.sim, io.cwd));
      progress.start(info.planned, info.alreadyDone);
    },
    onResult: (r) => progress.update(r),
    onThrottle: (service, concurrency) =>
      say(`driftcheck: ${service} is rate limiting — concurrency now ${concurrency}\n`),
    onPromptsMissing: promptsMissingTo(say, 'driftcheck'),
    onStaleLock: (note) => say(`driftcheck: ${note}\n`),
  };
  return { hooks, progress };
}

/** A run's header once its plan is known: how much, on what, into which folder (and the estimate, with a cap). */
function planLines(info: PlanInfo, plan: PlanOptions, sim: boolean, cwd: string): string {
  const { runDir, planned, alreadyDone, cases, suites, cost } = info;
  const { shard } = plan;
  const resumed = alreadyDone ? ` (${alreadyDone} already done, resuming)` : '';
  const samples = planned === cases ? '' : ` (${countOf(planned, 'sample')})`;
  // A suite with fewer cases than shards: this job runs empty so that merge finds it.
  const what =
    cases === 0 && shard
      ? `shard ${shard.index}/${shard.total} drew no case (fewer cases than shards): an empty run for the merge`
      : `${countOf(cases, 'case')}${samples} from ${countOf(suites, 'suite')}${resumed}${sim ? ' on the embedded simulator' : ''}`;
  return `driftcheck: ${what} → ${relative(cwd, runDir)}\n${info.restarted ? restartLine(info.restarted) : ''}${cost ? costLine(cost) : ''}`;
}

/** Conversations named in the restart line; past them, a count. */
const RESTARTS_NAMED = 5;

/**
 * A resumed run's line for the conversations its last session stopped part-way: they are
 * sent again from their first step (half a conversation is never judged), and the steps
 * already paid for count as spent.
 */
function restartLine({ keys, steps, cost }: Restarted): string {
  const named = keys.slice(0, RESTARTS_NAMED).join(', ');
  const more = keys.length > RESTARTS_NAMED ? ` and ${keys.length - RESTARTS_NAMED} more` : '';
  const paid = cost === null ? '' : ` (${formatUsd(cost)})`;
  return printable(
    `driftcheck: ${countOf(keys.length, 'conversation')} stopped part-way restart from step 1 (${named}${more}); ${countOf(steps, 'step')} already paid for${paid} count as spent\n`,
  );
}

/**
 * What a finished run says: the job summary (GitHub), keys redacted, the history, the
 * report files, the folder's index of runs, baselines written, why it stopped or how it
 * ended; and with `--json`, its summary on stdout.
 */
export async function publishRun(
  io: CliIO,
  request: Pick<RunRequest, 'reporters' | 'json'>,
  plan: Pick<RunPlanBase, 'reportDir' | 'suites' | 'configured'>,
  result: RunResult,
): Promise<void> {
  const { report, runDir, history } = result;
  await publishSummary(io, runDir, request.reporters);
  if (result.redacted)
    io.stderr(
      `driftcheck: a key value was found and replaced by [REDACTED] in ${result.redacted} sample(s)\n`,
    );
  const { hit, zero_usage } = result.cached;
  // Never a fresh sample silently: the cases' details say which (zero_usage, cache_hits).
  if (hit + zero_usage > 0)
    io.stderr(
      `driftcheck: warning: ${[
        ...(hit
          ? [
              `${countOf(hit, 'sample')} came from the router's response cache (X-OpenRouter-Cache-Status: HIT)`,
            ]
          : []),
        ...(zero_usage
          ? [
              `${countOf(zero_usage, 'sample')} reported every billable usage counter 0, as a cached answer does`,
            ]
          : []),
      ].join(' and ')}: not fresh answers of the model; their cases' details say which\n`,
    );
  for (const problem of history?.problems ?? []) io.stderr(`driftcheck: history: passed over ${problem}\n`);
  if (history?.appended) io.stderr(`history: ${relative(io.cwd, history.appended)}\n`);
  if (history?.refused.length)
    io.stderr(
      `history: not appended: this is ${history.refused.join(', ')}, not a night\n  → --history-force appends it anyway (the trend page marks it as forced)\n`,
    );
  if (result.journalSkipped)
    io.stderr(
      `driftcheck: ignored ${result.journalSkipped} unreadable journal line(s) (a torn write, or an edited line); those samples were sent again\n`,
    );
  io.stderr(`report: ${result.files.map((f) => relative(io.cwd, f)).join(' · ')}\n`);
  // The folder's index of runs (driftcheck open serves it), with this one at its top.
  await writeRunsIndex(plan.reportDir, { folder: basename(runDir), head: report });
  for (const file of result.baselinesWritten) io.stderr(`baseline written: ${relative(io.cwd, file)}\n`);
  if (result.baselinesSkipped) io.stderr(`baselines not updated: ${result.baselinesSkipped}\n`);
  const stopped = stopLine(
    report,
    `driftcheck run --resume ${relative(io.cwd, runDir)}`,
    stopServices(report, plan.suites, plan.configured),
  );
  // A stopped run's line says why (stopLine); a complete one that fails says what failed.
  if (stopped) io.stderr(stopped);
  io.stderr(modelStopLines(report));
  if (!stopped) io.stderr(exitLine('run', report.run.exit_code, exitReason(report.run, report.summary)));
  if (request.json) {
    const output = runOutput(report, {
      cwd: io.cwd,
      runDir,
      files: result.files,
      baselinesWritten: result.baselinesWritten,
    });
    io.stdout(`${JSON.stringify(output, null, 2)}\n`);
  }
}
