import { recordedBaseline } from '../stored/baseline/recorded.js';
import type { Baseline, BaselineCase, BaselineProvenance } from '../stored/baseline/types.js';
import type { CaseEntry } from '../stored/report/types.js';

export interface BaselineInput {
  suite: string;
  service: string;
  model: string;
  run_id: string;
  /** The suite's report entries (other suites' and not-run cases are ignored). */
  cases: Iterable<CaseEntry>;
  previous: Baseline | null;
  /** Case ids to accept (`baseline accept --case`); every other case of `previous` stays as it was. */
  only?: readonly string[];
  /** What the source run was, when it was not a nightly run of the real services. */
  provenance?: BaselineProvenance;
}

/**
 * Status of a case's samples: pass when a strict majority passed; otherwise error when
 * errors outnumber failures, else fail. One sample keeps its own status.
 */
function majorityStatus(c: CaseEntry): BaselineCase['status'] {
  const s = c.samples;
  if (s.passed * 2 > s.sent) return 'pass';
  return s.errored > s.failed ? 'error' : 'fail';
}

/** The baseline entry of one case; what it answered is its first sample's (the entry's answer fields). */
export function baselineCase(c: CaseEntry): BaselineCase {
  const status = majorityStatus(c);
  const entry: BaselineCase = {
    status,
    requested_model: c.requested_model,
    model: c.model,
    finish_reason: c.finish_reason,
    usage: c.usage,
    content: c.content,
    error_kind: status === 'error' || c.samples.sent === 1 ? (c.error?.kind ?? null) : null,
    checks: c.checks.map((k) => ({ type: k.type, pass: k.pass })),
  };
  if (c.samples.sent > 1) entry.samples = { pass: c.samples.passed, total: c.samples.sent };
  const within = c.within_max_steps;
  if (within && c.samples.sent > 1) entry.within_max_steps = { pass: within.finished, total: within.total };
  // Absent from reports of a driftcheck that did not keep it: such a baseline compares no latency.
  const latency = c.stats.answered.latency_ms;
  if (latency != null && latency.sample.length > 0) entry.latency_ms = latency;
  recordedBaseline(c, entry);
  return entry;
}

/**
 * Turns a run's entries for one suite into its baseline, for `baseline accept` and
 * `--update-baselines`. Entries of other suites and cases that were not run are ignored.
 *
 * Cases of `previous` that this run did not produce are kept: a filtered, sharded or
 * paused run must never delete baseline cases. A case removed from the suite therefore
 * lingers in the baseline, and the differ reports it as `missing_case` on every complete
 * run until someone deletes it from the file. With `only`, just those case ids are
 * replaced (when this run has them); everything else comes from `previous` untouched.
 */
export function baselineFromEntries(input: BaselineInput): Baseline {
  // A Map, then fromEntries: ids are user text, and `cases[id] = …` with "__proto__" would not add a key.
  const cases = new Map(Object.entries(input.previous?.cases ?? {}));
  for (const c of input.cases) if (acceptsCase(c, input)) cases.set(c.case, baselineCase(c));
  return { ...baselineHead(input), cases: Object.fromEntries(cases) };
}

/** Whether an entry becomes its case's baseline: its suite's, sent, and selected (`only`). */
export function acceptsCase(c: CaseEntry, input: Pick<BaselineInput, 'suite' | 'only'>): boolean {
  if (c.suite !== input.suite || c.samples.sent === 0) return false;
  return input.only === undefined || input.only.includes(c.case);
}

/** A baseline's own fields: the run's suite, service, model and id (the previous baseline's are not kept). */
export function baselineHead(
  input: Pick<BaselineInput, 'suite' | 'service' | 'model' | 'run_id' | 'provenance'>,
): Omit<Baseline, 'cases'> {
  return {
    schema_version: 1,
    suite: input.suite,
    service: input.service,
    model: input.model,
    source_run: input.run_id,
    ...(input.provenance ? { provenance: input.provenance } : {}),
  };
}
