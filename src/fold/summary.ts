import { hasDrift } from '../core/words.js';
import { exitForStop } from '../core/stops.js';
import { EXIT, type ExitCode } from '../util/exit-codes.js';
import type { CaseEntry, Summary, SuiteReport } from '../stored/report/types.js';
import type { RunStatus, StopReason } from '../core/stops.js';
import { COUNT_WORDS, isRegressed } from '../core/words.js';

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
  for (const c of cases) countCase(summary, c);
  countFindings(summary, suite);
}

/** Adds one folded case to the counts (countSuite's part for a case, as cases stream). */
export function countCase(summary: Summary, c: CaseEntry): void {
  summary.cases++;
  summary.samples += c.samples.sent;
  if (c.status === 'pass') summary.passed++;
  else if (c.status === 'fail') summary.failed++;
  else if (c.status === 'error') summary.errored++;
  else summary.not_run++;
  if (isRegressed(c)) summary.regressed++;
  if (hasDrift(c)) summary.drifted++;
}

/** Adds a suite's own findings to the counts (countSuite's part for the suite). */
export function countFindings(summary: Summary, suite: Pick<SuiteReport, 'drift'>): void {
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
 * A run that stopped early exits with its stop's code (exit-codes.ts), whatever its cases
 * say: that is what to do next (resume, fix a key). A run that went to its end having
 * stopped a model the service does not have (run/model-stops.ts) exits 2: a suite must be
 * fixed, whatever the other models did. Otherwise a complete run exits 1 for any failing,
 * erroring or regressed case or a failing suite finding, else 0. A run that did not stop
 * yet left a planned case unchecked (a recheck with no stored answer for it, a journal line
 * lost) checked less than asked: 1, never a pass.
 */
export function exitCodeFor(summary: Summary, stop: StopReason | null, modelStops = 0): ExitCode {
  if (stop) return exitForStop(stop);
  if (modelStops > 0) return EXIT.usage;
  return failing(summary) || summary.not_run > 0 ? EXIT.failure : EXIT.ok;
}

/** Whether the counts hold a failing, erroring or regressed case, or a failing suite finding. */
function failing(summary: Summary): boolean {
  return summary.failed + summary.errored + summary.regressed + summary.suite_regressed > 0;
}

/** What makes a complete run's verdict fail, in the counts' own words: `6 regressed, 4 failed, 2 errored of 18 cases`. */
function failingWords(summary: Summary): string {
  const parts = (['regressed', 'failed', 'errored'] as const)
    .filter((k) => summary[k] > 0)
    .map((k) => `${summary[k]} ${COUNT_WORDS[k]}`);
  // A run that did not stop yet left a case unchecked (a recheck without its stored answer).
  if (parts.length === 0 && summary.not_run > 0)
    parts.push(`${summary.not_run} ${COUNT_WORDS.not_run} (checked less than asked)`);
  const findings =
    summary.suite_regressed > 0
      ? `; ${summary.suite_regressed} failing suite finding${summary.suite_regressed === 1 ? '' : 's'}`
      : '';
  return `${parts.length ? parts.join(', ') : 'no failing case'} of ${summary.cases} case${summary.cases === 1 ? '' : 's'}${findings}`;
}

/** How many of the cases a stopped run left unsent, said once for every stop. */
const notRunWords = (summary: Summary) =>
  `${summary.not_run} of ${summary.cases} case${summary.cases === 1 ? '' : 's'} not run`;

/**
 * Why a run exits with its code, one line for stderr: the failing counts for 1, what
 * stopped it otherwise; null for 0. Every command that exits by a run's code (run, merge,
 * recheck, report of a complete run) says this.
 */
export function exitReason(
  run: {
    exit_code: ExitCode;
    stop_reason?: { kind: string; message: string } | null;
    model_stops?: readonly { model: string; service: string }[];
  },
  summary: Summary,
): string | null {
  const stop = run.stop_reason ? `${run.stop_reason.kind}: ${run.stop_reason.message}` : null;
  // A run that went to its end but stopped sending a model the service does not have.
  if (run.exit_code === EXIT.usage && !run.stop_reason && run.model_stops?.length)
    return `the service does not have ${run.model_stops.map((m) => `${m.model} (${m.service})`).join(', ')}: that model was sent nothing more, the rest ran; ${notRunWords(summary)}`;
  switch (run.exit_code) {
    case EXIT.ok:
      return null;
    case EXIT.failure:
      return failingWords(summary);
    case EXIT.usage:
      return `stopped by a configuration problem${stop ? ` (${stop})` : ''}; ${notRunWords(summary)}`;
    case EXIT.access:
      return `stopped by an authentication or permission failure${stop ? ` (${stop})` : ''}; ${notRunWords(summary)}`;
    case EXIT.paused:
      return `paused${stop ? ` (${stop})` : ''}; ${notRunWords(summary)}; --resume continues`;
    case EXIT.sigint:
    case EXIT.sigterm:
      return `interrupted (${run.exit_code === EXIT.sigint ? 'SIGINT' : 'SIGTERM'}); ${notRunWords(summary)}; --resume finishes it`;
    case EXIT.killed:
      return `killed: its journal has no end record (kill -9, out of memory, a crash); ${notRunWords(summary)}; --resume finishes it`;
  }
}

/**
 * Why `report` exits as it does (renderedExitCode): a stopped run's own reason, then what
 * the rendering exits by — the run's recorded code is not this command's.
 */
export function renderedExitReason(
  run: { exit_code: ExitCode; stop_reason?: { kind: string; message: string } | null },
  summary: Summary,
): string | null {
  const code = renderedExitCode(run, summary);
  if (code === run.exit_code) return exitReason(run, summary);
  const recorded = `the run was ${run.exit_code === EXIT.killed ? 'killed' : 'interrupted'} (exit_code ${run.exit_code} in report.json)`;
  return code === EXIT.failure
    ? `${recorded} and what it finished fails: ${failingWords(summary)}`
    : `${recorded}: no case it finished fails, and ${notRunWords(summary)}; an unfinished run is not a pass, --resume finishes it`;
}

/**
 * The exit code of a command that folds a stored run (`report`): a signal reached the run,
 * not this command, so it exits by what it rendered — 1 when that holds a failure, error
 * or regression, else 3 (not a pass: the run is unfinished and `--resume` finishes it).
 * Every other code is the verdict itself.
 */
export function renderedExitCode(run: { exit_code: ExitCode }, summary: Summary): ExitCode {
  if (run.exit_code !== EXIT.sigint && run.exit_code !== EXIT.sigterm && run.exit_code !== EXIT.killed)
    return run.exit_code;
  return failing(summary) ? EXIT.failure : EXIT.paused;
}
