import type { Baseline, BaselineCase, CaseResult } from '../types.js';

export interface BaselineInput {
  suite: string;
  service: string;
  model: string;
  run_id: string;
  results: CaseResult[];
  previous: Baseline | null;
  /** Case ids to accept (`baseline accept --case`); every other case of `previous` stays as it was. */
  only?: string[];
}

/**
 * Status of a repeated case: pass when a strict majority of samples passed; otherwise
 * error when errors outnumber failures, else fail. One sample keeps its own status.
 */
function majorityStatus(samples: CaseResult[]): BaselineCase['status'] {
  const count = (s: CaseResult['status']): number => samples.filter((r) => r.status === s).length;
  if (count('pass') * 2 > samples.length) return 'pass';
  return count('error') > count('fail') ? 'error' : 'fail';
}

/** The baseline entry of one case; what it answered comes from its first sample by repeat index. */
function caseFromSamples(samples: CaseResult[]): BaselineCase {
  const sorted = [...samples].sort((a, b) => a.repeat - b.repeat);
  const first = sorted[0]!;
  const entry: BaselineCase = {
    status: majorityStatus(sorted),
    requested_model: first.requested_model,
    model: first.model,
    finish_reason: first.finish_reason,
    usage: first.usage,
    content: first.content,
    error_kind: first.error?.kind ?? null,
    checks: first.checks.map((c) => ({ type: c.type, pass: c.pass })),
  };
  if (sorted.length > 1) {
    entry.samples = { pass: sorted.filter((r) => r.status === 'pass').length, total: sorted.length };
  }
  return entry;
}

/**
 * Turns a run's results for one suite into its baseline, for `baseline accept` and
 * `--update-baselines`. Results of other suites and `not_run` samples are ignored.
 *
 * Cases of `previous` that this run did not produce are kept: a filtered, sharded or
 * paused run must never delete baseline cases. A case removed from the suite therefore
 * lingers in the baseline, and the differ reports it as `missing_case` on every complete
 * run until someone deletes it from the file. With `only`, just those case ids are
 * replaced (when this run has them); everything else comes from `previous` untouched.
 */
export function baselineFromResults(input: BaselineInput): Baseline {
  const bySample = new Map<string, CaseResult[]>();
  for (const r of input.results) {
    if (r.suite !== input.suite || r.status === 'not_run') continue;
    if (input.only !== undefined && !input.only.includes(r.case)) continue;
    const list = bySample.get(r.case);
    if (list) list.push(r);
    else bySample.set(r.case, [r]);
  }
  // A Map, then fromEntries: ids are user text, and `cases[id] = …` with "__proto__" would not add a key.
  const cases = new Map(Object.entries(input.previous?.cases ?? {}));
  for (const [id, samples] of bySample) cases.set(id, caseFromSamples(samples));
  return {
    schema_version: 1,
    suite: input.suite,
    service: input.service,
    model: input.model,
    source_run: input.run_id,
    cases: Object.fromEntries(cases),
  };
}
