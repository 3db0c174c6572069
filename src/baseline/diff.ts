import type { Baseline, BaselineCase, CaseResult, Drift } from '../types.js';
import { contentDrift, usageDrift } from './answer-drift.js';

export interface DiffOptions {
  /** Relative change of completion/total tokens that counts as usage drift (default 0.25). */
  usageTolerance?: number;
  /** Similarity below which content_changed is a warning rather than info (default 0.6). */
  contentThreshold?: number;
  /** A `--model` candidate run: a different concrete model is what the user asked for (info). */
  candidate?: boolean;
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
  if (baseline === undefined) {
    return [
      {
        kind: 'new_case',
        severity: 'info',
        baseline: null,
        current: current.status,
        message: `new case "${current.case}": not in the baseline yet`,
      },
    ];
  }
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
  drift.push(...usageDrift(baseline.usage, current.usage, options.usageTolerance ?? 0.25));
  drift.push(...contentDrift(baseline.content, current.content, options.contentThreshold ?? 0.6));
  return drift;
}

/**
 * Drift of one suite's results against its baseline, aligned by case id (never by position).
 * `complete` is false for filtered, sharded or paused runs: a case they skipped is not missing.
 */
export function diffSuite(input: {
  suite: string;
  results: CaseResult[];
  baseline: Baseline | null;
  complete: boolean;
  options?: DiffOptions;
}): { byKey: Map<string, Drift[]>; suiteDrift: Drift[] } {
  const byKey = new Map<string, Drift[]>();
  const seen = new Set<string>();
  const cases = new Map(Object.entries(input.baseline?.cases ?? {}));
  for (const r of input.results) {
    if (r.suite !== input.suite) continue;
    seen.add(r.case);
    byKey.set(r.key, diffCase(r, cases.get(r.case), input.options));
  }
  const suiteDrift: Drift[] = [];
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
