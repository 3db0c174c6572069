import type { Samples } from '../stats/samples.js';

/**
 * What each word driftcheck prints about a case means, decided here once. The fold, the
 * comparison and every view (the console, summary.md, JUnit, report.html, compare.*, the
 * verdict lines) import these; README's "What the words mean" says the same in prose.
 *
 * Two families of counts must never share a word:
 * - a case's *verdict* against its reference — `regressed`, `fixed` (and the comparison's
 *   `changed`, `same`, `new`, `missing`, `not run`, `skipped`): one case, one word;
 * - the *paired verdict's* counts over a candidate's cases — in how many cases its pass
 *   rate is lower or higher than the reference's (a case 0/10 → 2/10 is higher, yet still
 *   fails: it is not `fixed`). They are written `pass rate lower in …, higher in …`.
 */

/**
 * `regressed`: the case has a drift of severity fail against its baseline — it passed there
 * and fails or errors now, a new error or refusal, another error, a repeated case's
 * significant pass-rate drop, or what a suite's rules make fail (a provider change on a
 * nightly run). Such a case fails the run (exit 1) even when its checks pass.
 */
export function isRegressed(entry: WithDrift): boolean {
  return entry.drift.some((d) => d.severity === 'fail');
}

/**
 * `fixed`: against its baseline, the case did not pass there and passes now (its `fixed`
 * drift, made by statusChange). A repeated case is judged by its pass-rate test instead,
 * which calls a drop `regressed` and names no fix.
 */
export function isFixed(entry: WithDrift): boolean {
  return entry.drift.some((d) => d.kind === 'fixed');
}

/**
 * A case's verdict against another verdict of it, by the one rule `regressed` and `fixed`
 * are decided by between two statuses: it passed there and does not now (`regressed`), it
 * did not pass there and passes now (`fixed`), else null. A case not run has no verdict.
 */
export function statusChange(before: CaseStatus, now: CaseStatus): 'regressed' | 'fixed' | null {
  if (before === 'not_run' || now === 'not_run') return null;
  if (before === 'pass' && now !== 'pass') return 'regressed';
  if (before !== 'pass' && now === 'pass') return 'fixed';
  return null;
}

/**
 * How every view names the run's counts (Summary: fold/summary.ts counts them): the console's
 * counts line, summary.md's heading and table, report.html's chips, an exit line.
 */
export const COUNT_WORDS = {
  passed: 'passed',
  failed: 'failed',
  errored: 'errored',
  not_run: 'not run',
  regressed: 'regressed',
  drifted: 'drifted',
} as const;

/** How a view names a case's status (`not run`, not `not_run`). */
export const STATUS_WORDS: Readonly<Record<CaseStatus, string>> = {
  pass: 'pass',
  fail: 'fail',
  error: 'error',
  not_run: 'not run',
};

/**
 * The status word every view prints for a case: its status, and `pass (regressed)` for a
 * case whose checks pass but that regressed (a provider change on a nightly run, a new
 * refusal the checks allow), so a failing mark is never beside a bare "pass".
 */
export function statusWord(entry: WithDrift & { status: CaseStatus }): string {
  return entry.status === 'pass' && isRegressed(entry) ? 'pass (regressed)' : STATUS_WORDS[entry.status];
}

/**
 * What a candidate's case did against the reference, in a comparison:
 * - `regressed`: against a baseline, the case regressed (isRegressed, the run's own drift);
 *   against a run, it passed there and does not now (statusChange);
 * - `fixed`: it did not pass in the reference and passes now (the baseline's `fixed` drift,
 *   or statusChange);
 * - `changed`: the same verdict, another answer or a drift worth a look;
 * - `same`: the same verdict and answer;
 * - `new`: the reference has no verdict for it (not in the baseline, or not answered there);
 * - `missing`: the reference has it but the candidate's run does not hold it (another
 *   selection, a case added or removed since): not compared, as `diff`'s missing_case;
 * - `not_run`: the candidate's run planned it and never answered it (a stopped run);
 * - `skipped`: its suite is not the candidate's kind of service.
 */
export const CHANGES = [
  'regressed',
  'fixed',
  'changed',
  'same',
  'new',
  'missing',
  'not_run',
  'skipped',
] as const;
export type Change = (typeof CHANGES)[number];

/** How every view prints a change. */
export const CHANGE_WORDS: Readonly<Record<Change, string>> = {
  regressed: 'regressed',
  fixed: 'fixed',
  changed: 'changed',
  same: 'same',
  new: 'new',
  missing: 'missing',
  not_run: 'not run',
  skipped: 'skipped',
};

/**
 * The paired verdict's counts in words: `pass rate lower in 5 and higher in 1 of 14 cases`.
 * Not `regressions` and `fixes`: those words are the cases' verdicts, and a case whose pass
 * rate moved (9/10 → 8/10, 0/10 → 2/10) may keep its verdict.
 */
export function pairedCountsWords(counts: { lower: number; higher: number; cases: number }): string {
  return `pass rate lower in ${counts.lower} and higher in ${counts.higher} of ${counts.cases} case${counts.cases === 1 ? '' : 's'}`;
}

/**
 * Whether a case meets its expectations, the first of a verdict's two questions: at least
 * half its samples pass its checks. It is asked of every case, whatever its baseline says —
 * a baseline cannot make 0 of 10 a pass; the test against the baseline ("regressed") is the
 * second question, on top of this one. Half is the rule a first night (no baseline) has
 * always had, so a case is judged the same with and without a baseline.
 */
export function meetsExpectations(s: Samples): boolean {
  return s.pass * 2 >= s.total;
}

/** The verdict rule of a repeated case, in one place: it fails when it does not meet its expectations or when it dropped. */
export function failsRun(samples: Samples, dropped: boolean): boolean {
  return !meetsExpectations(samples) || dropped;
}

const percent = (rate: number) => `${Math.round(rate * 100)}%`;
/** `80% (8/10)`: a rate as drift messages show it. */
export const counts = (s: { pass: number; total: number }) =>
  `${percent(s.total ? s.pass / s.total : 0)} (${s.pass}/${s.total})`;

/** A case has drifted when it has any drift beyond simply being new. */
export function hasDrift(entry: WithDrift): boolean {
  return entry.drift.some((d) => d.kind !== 'new_case');
}

export type CaseStatus = 'pass' | 'fail' | 'error' | 'not_run';

/** What these words read of a case: its drift's kinds (a report's case entry is one). */
interface WithDrift {
  drift: readonly { kind: string; severity: string }[];
}
