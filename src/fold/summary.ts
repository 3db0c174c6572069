import { EXIT, type ExitCode, exitForStop } from '../exit-codes.js';
import type { CaseDetail, CaseEntry, RunStatus, StopReason, Summary, SuiteReport } from '../types.js';

/** A case is regressed when any of its drift has severity `fail`. */
export function isRegressed(entry: Pick<CaseEntry, 'drift'>): boolean {
  return entry.drift.some((d) => d.severity === 'fail');
}

/** A case has drifted when it has any drift beyond simply being new. */
function hasDrift(entry: Pick<CaseEntry, 'drift'>): boolean {
  return entry.drift.some((d) => d.kind !== 'new_case');
}

/**
 * How much of a case the reviewing reports show, the one place it is decided: `brief` when
 * every sample passed and nothing changed against the baseline (a new case is not a
 * change), and no history, redaction or pass-rate finding asks for a look; else `full`.
 */
export function caseDetail(
  entry: Pick<CaseEntry, 'status' | 'samples' | 'drift' | 'redacted' | 'history'>,
): CaseDetail {
  const s = entry.samples;
  const clean = entry.status === 'pass' && s.sent > 0 && s.passed === s.sent && s.not_run === 0;
  return clean && !hasDrift(entry) && !entry.redacted && !entry.history ? 'brief' : 'full';
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
export function countFindings(summary: Summary, suite: SuiteReport): void {
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
