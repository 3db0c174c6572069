import type { Baseline, BaselineCase, CaseResult, Drift, DriftTolerance } from '../types.js';
import { contentDrift, usageDrift } from './answer-drift.js';
import { mergeTolerance, overlayTolerance, type SuiteTolerances } from './tolerance.js';
import { suiteUsageDrift } from './usage-totals.js';

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
  /** A `--model` candidate run: a different concrete model is what the user asked for (info). */
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

function statusDrift(current: CaseResult, base: BaselineCase): Drift[] {
  const drift: Drift[] = [];
  if (current.status === 'error' && current.error && base.status !== 'error') {
    const { kind, message } = current.error;
    drift.push({
      kind: 'new_error',
      severity: 'fail',
      baseline: base.status,
      current: { kind, message },
      message: `new error: ${kind}: ${message}`,
    });
  }
  if (base.status === 'pass' && current.status !== 'pass') {
    const now =
      current.status === 'error' ? `errors (${current.error?.kind ?? 'unknown'})` : failedChecks(current);
    drift.push({
      kind: 'regressed',
      severity: 'fail',
      baseline: 'pass',
      current: current.status,
      message: `regressed: passed in the baseline, now ${now}`,
    });
  }
  if (base.status !== 'pass' && current.status === 'pass') {
    const then = base.status === 'error' ? `errored (${base.error_kind ?? 'unknown'})` : 'failed';
    drift.push({
      kind: 'fixed',
      severity: 'info',
      baseline: base.status,
      current: 'pass',
      message: `fixed: ${then} in the baseline, passes now`,
    });
  }
  return drift;
}

/**
 * The drift of a sample whose case the baseline does not have: one frozen list per status,
 * shared by every such sample. A run without baselines yet (a new suite, the first night)
 * otherwise held one list, one object and one message per sample, about 18 MB at
 * 100,000 cases. The message does not repeat the case id; the case it belongs to says it.
 */
const NEW_CASE: Record<'pass' | 'fail' | 'error', Drift[]> = {
  pass: newCaseDrift('pass'),
  fail: newCaseDrift('fail'),
  error: newCaseDrift('error'),
};
function newCaseDrift(status: 'pass' | 'fail' | 'error'): Drift[] {
  const drift: Drift = Object.freeze({
    kind: 'new_case',
    severity: 'info',
    baseline: null,
    current: status,
    message: 'new case: not in the baseline yet',
  });
  return Object.freeze([drift]) as Drift[];
}

function failedChecks(current: CaseResult): string {
  const failed = current.checks.filter((c) => !c.pass);
  if (failed.length === 0) return 'fails';
  return `fails ${failed.length} check${failed.length === 1 ? '' : 's'} (${failed.map((c) => c.type).join(', ')})`;
}

/**
 * Compares one sample with its suite's baseline entry for the same case id. A `not_run`
 * sample has no drift; an errored one only status drift (new_error says what happened),
 * because its model, usage and content mean nothing.
 */
export function diffCase(
  current: CaseResult,
  baseline: BaselineCase | undefined,
  options: DiffOptions = {},
): Drift[] {
  if (current.status === 'not_run') return [];
  if (baseline === undefined) return NEW_CASE[current.status];
  const drift = statusDrift(current, baseline);
  if (current.status === 'error') return drift;
  if (current.model !== null && baseline.model !== null && current.model !== baseline.model) {
    drift.push({
      kind: 'model_changed',
      severity: options.candidate ? 'info' : 'warn',
      baseline: baseline.model,
      current: current.model,
      message: `model changed: ${baseline.model} → ${current.model}${options.candidate ? ' (candidate run)' : ''}`,
    });
  }
  // A baseline that errored recorded no real answer; `fixed` already says what changed.
  if (baseline.status === 'error') return drift;
  const was = baseline.finish_reason;
  if (was !== null && current.finish_reason !== null && was !== current.finish_reason) {
    drift.push({
      kind: 'finish_reason_changed',
      severity: 'warn',
      baseline: was,
      current: current.finish_reason,
      message: `finish_reason changed: ${was} → ${current.finish_reason}`,
    });
  }
  const tolerance = mergeTolerance(runLayer(options), options.tolerance);
  drift.push(...usageDrift(baseline.usage, current.usage, tolerance.usage));
  drift.push(...contentDrift(baseline.content, current.content, tolerance.content));
  return drift;
}

/**
 * Drift of one suite's results against its baseline, aligned by case id (never by position).
 * `complete` is false for filtered, sharded or paused runs: a case they skipped is not missing.
 * `tolerances` (see tolerancesOf) layers the suite's and each case's `drift:` over `options`.
 * Suite-level drift: missing cases, and usage_changed when the suite's summed tokens or cost
 * moved (over the cases both sides have, so partial runs compare fairly too).
 */
export function diffSuite(input: {
  suite: string;
  results: CaseResult[];
  baseline: Baseline | null;
  complete: boolean;
  options?: DiffOptions;
  tolerances?: SuiteTolerances;
}): { byKey: Map<string, Drift[]>; suiteDrift: Drift[] } {
  const byKey = new Map<string, Drift[]>();
  const seen = new Set<string>();
  const cases = new Map(Object.entries(input.baseline?.cases ?? {}));
  const options = input.options ?? {};
  const suiteLayer = overlayTolerance(options.tolerance, input.tolerances?.suite);
  for (const r of input.results) {
    if (r.suite !== input.suite) continue;
    seen.add(r.case);
    const tolerance = overlayTolerance(suiteLayer, input.tolerances?.cases.get(r.case));
    byKey.set(r.key, diffCase(r, cases.get(r.case), { ...options, tolerance }));
  }
  const suiteDrift: Drift[] = [];
  if (input.baseline !== null) {
    const usage = suiteUsageDrift(
      input.results,
      input.baseline,
      mergeTolerance(runLayer(options), suiteLayer).usage,
    );
    if (usage !== null) suiteDrift.push(usage);
  }
  if (input.complete) {
    for (const [id, base] of cases) {
      if (seen.has(id)) continue;
      suiteDrift.push({
        kind: 'missing_case',
        severity: 'warn',
        baseline: { case: id, status: base.status },
        current: null,
        message: `missing case "${id}": in the baseline but not in the suite (removed or renamed?); delete it from the baseline file once intended`,
      });
    }
  }
  return { byKey, suiteDrift };
}
