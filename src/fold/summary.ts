import type { CaseEntry, ExitCode, RunStatus, StopReason, Summary, SuiteReport } from '../types.js';

/** A case is regressed when any of its drift has severity `fail`. */
export function isRegressed(entry: Pick<CaseEntry, 'drift'>): boolean {
  return entry.drift.some((d) => d.severity === 'fail');
}

/** A case has drifted when it has any drift beyond simply being new. */
export function hasDrift(entry: Pick<CaseEntry, 'drift'>): boolean {
  return entry.drift.some((d) => d.kind !== 'new_case');
}

export function emptySummary(): Summary {
  return {
    cases: 0,
    samples: 0,
    passed: 0,
    failed: 0,
    errored: 0,
    not_run: 0,
    regressed: 0,
    drifted: 0,
    suite_findings: 0,
    suite_regressed: 0,
  };
}

/**
 * Adds a folded suite to the counts. The one place counts are made: the console, HTML,
 * Markdown, JUnit and the verdict line all read the Summary this fills, so they agree.
 */
export function countSuite(summary: Summary, suite: SuiteReport, cases: readonly CaseEntry[]): void {
  for (const c of cases) {
    summary.cases++;
    summary.samples += c.samples.sent;
    if (c.status === 'pass') summary.passed++;
    else if (c.status === 'fail') summary.failed++;
    else if (c.status === 'error') summary.errored++;
    else summary.not_run++;
    if (isRegressed(c)) summary.regressed++;
    if (hasDrift(c)) summary.drifted++;
  }
  summary.suite_findings += suite.drift.length;
  summary.suite_regressed += suite.drift.filter((d) => d.severity === 'fail').length;
}

/**
 * How a journal without an end record stopped: killed (kill -9, the out-of-memory killer,
 * a power loss) or crashed — never a signal it could name, so it does not claim one.
 */
export const KILLED: StopReason = Object.freeze({ kind: 'killed', error: null });

export function runStatusFor(stop: StopReason | null): RunStatus {
  if (!stop) return 'completed';
  return stop.kind === 'interrupted' || stop.kind === 'killed' ? 'interrupted' : 'paused';
}

/**
 * DESIGN.md's exit codes: 3 for a budget pause, 4 for an auth/permission stop, 2 for a
 * configuration stop (the base_url reached no chat-completion endpoint, or the model does
 * not exist), 1 for any failing, erroring or regressed case or a failing suite finding,
 * else 0. An interrupted run exits as shells expect of a signal (130 SIGINT, 143 SIGTERM),
 * so CI never mistakes it for a verdict; a killed run is recorded as the shell saw it, 137
 * (128 + SIGKILL).
 */
export function exitCodeFor(summary: Summary, stop: StopReason | null): ExitCode {
  if (stop?.kind === 'paused') return 3;
  if (stop?.kind === 'access') return 4;
  if (stop?.kind === 'config') return 2;
  if (stop?.kind === 'interrupted') return stop.signal === 'SIGTERM' ? 143 : 130;
  if (stop?.kind === 'killed') return 137;
  return failing(summary) ? 1 : 0;
}

/** Whether the counts hold a failing, erroring or regressed case, or a failing suite finding. */
function failing(summary: Summary): boolean {
  return summary.failed + summary.errored + summary.regressed + summary.suite_regressed > 0;
}

/**
 * The exit code of a command that folds a stored run (`report`): a signal reached the run,
 * not this command, so it exits by what it rendered — 1 when that holds a failure, error
 * or regression, else 3 (not a pass: the run is unfinished and `--resume` finishes it).
 * Every other code is the verdict itself.
 */
export function renderedExitCode(run: { exit_code: ExitCode }, summary: Summary): ExitCode {
  if (run.exit_code !== 130 && run.exit_code !== 143 && run.exit_code !== 137) return run.exit_code;
  return failing(summary) ? 1 : 3;
}

/**
 * The exit code of several runs (`--models`, `--providers`): the most serious first —
 * auth, configuration, budget, interrupt, a killed run, failure — so one candidate that
 * failed or could not run is never hidden by the others passing.
 */
export function worstExitCode(codes: readonly ExitCode[]): ExitCode {
  return ([4, 2, 3, 130, 143, 137, 1] as const).find((c) => codes.includes(c)) ?? 0;
}
