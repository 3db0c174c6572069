import type { StopReason } from '../run/execute.js';
import type { CaseResult, ExitCode, RunStatus, SuiteReport, Summary } from '../types.js';

/** A case counts as drifted when it has any drift beyond simply being new. */
function hasDrift(result: CaseResult): boolean {
  return result.drift.some((d) => d.kind !== 'new_case');
}

/** A case counts as regressed when any of its drift has severity `fail`. */
export function isRegressed(result: CaseResult): boolean {
  return result.drift.some((d) => d.severity === 'fail');
}

export function summarize(cases: readonly CaseResult[], suites: readonly SuiteReport[]): Summary {
  const summary: Summary = {
    total: 0,
    passed: 0,
    failed: 0,
    errored: 0,
    regressed: 0,
    drifted: 0,
    not_run: 0,
  };
  for (const c of cases) {
    summary.total++;
    if (c.status === 'pass') summary.passed++;
    else if (c.status === 'fail') summary.failed++;
    else if (c.status === 'error') summary.errored++;
    else summary.not_run++;
    if (isRegressed(c)) summary.regressed++;
    if (hasDrift(c)) summary.drifted++;
  }
  // Suite-level drift (missing cases) has no case row of its own; count each finding.
  for (const s of suites) {
    summary.drifted += s.drift.length;
    summary.regressed += s.drift.filter((d) => d.severity === 'fail').length;
  }
  return summary;
}

export function runStatusFor(stop: StopReason | null): RunStatus {
  if (!stop) return 'completed';
  return stop.kind === 'interrupted' ? 'interrupted' : 'paused';
}

/**
 * DESIGN.md's exit codes: 3 for a budget pause, 4 for an auth/permission stop, 1 for any
 * failure, error or regression, else 0. An interrupted run exits as shells expect of a
 * signal (130 SIGINT, 143 SIGTERM), so CI never mistakes it for a verdict.
 */
export function exitCodeFor(
  summary: Summary,
  stop: StopReason | null,
  failing = summary.failed + summary.errored,
): ExitCode {
  if (stop?.kind === 'paused') return 3;
  if (stop?.kind === 'access') return 4;
  if (stop?.kind === 'interrupted') return stop.signal === 'SIGTERM' ? 143 : 130;
  return failing + summary.regressed > 0 ? 1 : 0;
}

/**
 * How many cases fail the run: a sample that failed or errored — except in a repeated
 * case, where single failing samples are expected noise and the case fails only when its
 * pass-rate verdict says so (or any sample errored).
 */
export function failingUnits(cases: readonly CaseResult[], suites: readonly SuiteReport[]): number {
  const repeated = new Map<string, boolean>();
  for (const s of suites)
    for (const stat of s.pass_rates) repeated.set(`${s.suite}/${stat.case}`, stat.failing);
  let failing = 0;
  const counted = new Set<string>();
  for (const c of cases) {
    const id = `${c.suite}/${c.case}`;
    const verdict = repeated.get(id);
    if (verdict === undefined) {
      if (c.status === 'fail' || c.status === 'error') failing++;
    } else if (!counted.has(id) && (verdict || c.status === 'error')) {
      counted.add(id);
      failing++;
    }
  }
  return failing;
}
