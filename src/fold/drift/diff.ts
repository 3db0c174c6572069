import { isLoopError } from '../../core/error-kinds.js';
import type { DriftTolerance } from '../../suite/types.js';
import type { BaselineCase } from '../../stored/baseline/types.js';
import type { CaseEntry } from '../../stored/report/types.js';
import { DRIFT_SEVERITY, type Drift, severityOf } from '../../record/drift-kinds.js';
import { lookupOf } from '../../stored/baseline/case-lookup.js';
import { recordedDrift } from '../../stored/baseline/recorded.js';
import type { RecordedCase } from '../../record/registry.js';
import type { RecordedTolerance } from '../../record/field.js';
import { servedChange } from '../../record/served-change.js';
import { contentDrift, usageDrift } from './answer.js';
import { mergeTolerance } from './tolerance.js';
import { type AnsweredCase, type BaselineCases, suiteUsageDrift } from './usage-totals.js';

export interface DiffOptions {
  /** Run-wide relative change of completion/total tokens and cost that counts as usage drift (default 0.25). */
  usageTolerance?: number;
  /** Run-wide similarity below which content_changed is a warning rather than info (default 0.6). */
  contentThreshold?: number;
  /**
   * `drift:` tolerance for this comparison, already layered (case over suite); wins over the
   * two run-wide numbers above. diffSuite fills it per case from its `tolerances`.
   */
  tolerance?: DriftTolerance;
  /** A `--model`/`--models` candidate run: another model, provider or fingerprint is what the user asked for (info). */
  candidate?: boolean;
}

/** The run-wide numbers of DiffOptions as the lowest tolerance layer. */
function runLayer(options: DiffOptions): DriftTolerance {
  const u = options.usageTolerance;
  return {
    ...(u !== undefined ? { usage: { completion_tokens: u, total_tokens: u, cost: u } } : {}),
    ...(options.contentThreshold !== undefined ? { content: { similarity: options.contentThreshold } } : {}),
  };
}

/** What the differ reads of a case: its verdict, its first answer, and what served it (its recorded fields). */
export type DiffedCase = Pick<
  CaseEntry,
  'status' | 'error' | 'checks' | 'model' | 'models' | 'finish_reason' | 'usage' | 'content' | 'pass_rate'
> &
  RecordedCase;

/** The case's verdict against the baseline's status: errors, refusals, regressions and fixes. */
function statusDrift(current: DiffedCase, base: BaselineCase): Drift[] {
  const drift: Drift[] = [];
  const kind = current.error?.kind ?? null;
  if (current.status === 'error' && current.error && kind === 'refusal' && base.error_kind !== 'refusal') {
    drift.push({
      kind: 'refused',
      severity: severityOf('refused'),
      baseline: base.status,
      current: { kind, message: current.error.message },
      message: `refused: the model answered in the baseline, now refuses: ${current.error.message}`,
    });
  } else if (current.status === 'error' && current.error && base.status !== 'error') {
    drift.push({
      kind: 'new_error',
      severity: severityOf('new_error'),
      baseline: base.status,
      current: { kind, message: current.error.message },
      message: `new error: ${kind}: ${current.error.message}`,
    });
  } else if (
    current.error &&
    base.status === 'error' &&
    base.error_kind !== null &&
    kind !== base.error_kind
  ) {
    drift.push({
      kind: 'error_changed',
      severity: severityOf('error_changed'),
      baseline: base.error_kind,
      current: kind,
      message: `error changed: ${base.error_kind} → ${kind}: ${current.error.message}`,
    });
  }
  // A repeated case's single outcomes prove nothing alone: its pass-rate test decides.
  if (current.pass_rate !== null) return drift;
  if (base.status === 'pass' && current.status !== 'pass') {
    const now = current.status === 'error' ? `errors (${kind ?? 'unknown'})` : failedChecks(current);
    drift.push({
      kind: 'regressed',
      severity: severityOf('regressed'),
      baseline: 'pass',
      current: current.status,
      message: `regressed: passed in the baseline, now ${now}`,
    });
  }
  if (base.status !== 'pass' && current.status === 'pass') {
    const then = base.status === 'error' ? `errored (${base.error_kind ?? 'unknown'})` : 'failed';
    drift.push({
      kind: 'fixed',
      severity: severityOf('fixed'),
      baseline: base.status,
      current: 'pass',
      message: `fixed: ${then} in the baseline, passes now`,
    });
  }
  return drift;
}

/**
 * What served the answers against what served the baseline's: the concrete model, then each
 * recorded field's own rule (the router's provider, the backend fingerprint, …). Another
 * model is news on a nightly run (warn), information on a candidate run.
 */
function servedDrift(
  current: DiffedCase,
  base: BaselineCase,
  candidate: boolean,
  tolerance: RecordedTolerance,
): Drift[] {
  return [
    ...servedChange({
      kind: 'model_changed',
      row: DRIFT_SEVERITY.model_changed,
      label: 'model',
      seen: current.models,
      was: base.model,
      candidate,
      note: '',
    }),
    ...recordedDrift(current, base, candidate, tolerance),
  ];
}

/** The drift of a case the baseline does not have: the same frozen list for every such case. */
const NEW_CASE: readonly Drift[] = Object.freeze([
  Object.freeze({
    kind: 'new_case',
    severity: severityOf('new_case'),
    baseline: null,
    current: null,
    message: 'new case: not in the baseline yet',
  } satisfies Drift),
]);

function failedChecks(current: Pick<DiffedCase, 'checks'>): string {
  const failed = current.checks.filter((c) => !c.pass);
  if (failed.length === 0) return 'fails';
  return `fails ${failed.length} check${failed.length === 1 ? '' : 's'} (${failed.map((c) => c.type).join(', ')})`;
}

/**
 * Whether a case's answers are compared with its baseline's (what served them, recorded
 * fields, content): it ran and did not error — an errored case's answers mean nothing.
 */
export function answersCompared(current: Pick<DiffedCase, 'status'>): boolean {
  return current.status !== 'not_run' && current.status !== 'error';
}

/**
 * Compares one case with its suite's baseline entry for the same case id. A case that was
 * not run has no drift; an errored one only status drift (new_error, error_changed or
 * refused say what happened), because its model, usage and content mean nothing.
 */
export function diffCase(
  current: DiffedCase,
  baseline: BaselineCase | undefined,
  options: DiffOptions = {},
): Drift[] {
  if (current.status === 'not_run') return [];
  if (baseline === undefined) return NEW_CASE as Drift[];
  const drift = statusDrift(current, baseline);
  const tolerance = mergeTolerance(runLayer(options), options.tolerance);
  const candidate = options.candidate ?? false;
  if (!answersCompared(current)) {
    // A loop past its bounds was answered at every step: what served it and its trajectory say why.
    if (current.status === 'error' && isLoopError(current.error?.kind))
      drift.push(...servedDrift(current, baseline, candidate, tolerance));
    return drift;
  }
  drift.push(...servedDrift(current, baseline, candidate, tolerance));
  // A baseline that errored recorded no real answer; `fixed` already says what changed.
  if (baseline.status === 'error') return drift;
  const was = baseline.finish_reason;
  if (was !== null && current.finish_reason !== null && was !== current.finish_reason) {
    drift.push({
      kind: 'finish_reason_changed',
      severity: severityOf('finish_reason_changed'),
      baseline: was,
      current: current.finish_reason,
      message: `finish_reason changed: ${was} → ${current.finish_reason}`,
    });
  }
  drift.push(...usageDrift(baseline.usage, current.usage, tolerance.usage));
  drift.push(...contentDrift(baseline.content, current.content, tolerance.content));
  return drift;
}

/**
 * Suite-level drift: usage_changed when the suite's summed tokens or cost moved (over the
 * cases both sides have, so partial runs compare fairly too), and, for complete runs,
 * missing cases (`seen` are the case ids the run planned).
 */
export function suiteDrift(input: {
  cases: Iterable<AnsweredCase>;
  /** The baseline's cases, or what the suite's findings read of them (BaselineFigures). */
  baseline: BaselineCases | null;
  /** Whether the run planned a case (by id). */
  seen: { has(id: string): boolean };
  complete: boolean;
  options?: DiffOptions;
  tolerance?: DriftTolerance;
}): Drift[] {
  const drift: Drift[] = [];
  if (input.baseline === null) return drift;
  const options = input.options ?? {};
  const usage = suiteUsageDrift(
    input.cases,
    input.baseline,
    mergeTolerance(runLayer(options), input.tolerance).usage,
  );
  if (usage !== null) drift.push(usage);
  if (!input.complete) return drift;
  const cases = lookupOf(input.baseline);
  for (const id of cases.ids()) {
    if (input.seen.has(id)) continue;
    const base = cases.get(id)!;
    drift.push({
      kind: 'missing_case',
      severity: severityOf('missing_case'),
      baseline: { case: id, status: base.status },
      current: null,
      message: `missing case "${id}": in the baseline but not in the suite (removed or renamed?); delete it from the baseline file once intended`,
    });
  }
  return drift;
}
