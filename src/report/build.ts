import { type DiffOptions, diffSuite } from '../baseline/diff.js';
import type { StopReason } from '../run/execute.js';
import type { Baseline, CaseResult, Report, RunInfo, Suite, SuiteReport } from '../types.js';
import { exitCodeFor, runStatusFor, summarize } from './verdict.js';

export interface BuildReportInput {
  /** Everything about the run except what the verdict decides. */
  run: Omit<RunInfo, 'status' | 'exit_code' | 'stop_reason'>;
  stop: StopReason | null;
  suites: readonly Suite[];
  /** One result per planned sample (not_run included). */
  results: readonly CaseResult[];
  /** Baseline per suite name (null when the suite has none yet), and where it lives. */
  baselines: ReadonlyMap<string, { baseline: Baseline | null; path: string }>;
  /** False when the plan covered only part of the suites (filter, shard): no missing_case then. */
  complete: boolean;
  diff?: DiffOptions;
}

/**
 * Assembles the finished report: drift against baselines, counts, verdict and exit code.
 * Pure — reporters only render what this returns.
 */
export function buildReport(input: BuildReportInput): Report {
  const bySuite = new Map<string, CaseResult[]>();
  for (const result of input.results) {
    const list = bySuite.get(result.suite) ?? [];
    list.push(result);
    bySuite.set(result.suite, list);
  }
  const drifted = new Map<string, CaseResult>();
  const suites: SuiteReport[] = [];
  for (const suite of input.suites) {
    const results = bySuite.get(suite.suite) ?? [];
    const stored = input.baselines.get(suite.suite) ?? null;
    const { byKey, suiteDrift } = diffSuite({
      suite: suite.suite,
      results,
      baseline: stored?.baseline ?? null,
      complete: input.complete && input.stop === null,
      ...(input.diff ? { options: input.diff } : {}),
    });
    for (const result of results) drifted.set(result.key, { ...result, drift: byKey.get(result.key) ?? [] });
    const first = results.find((r) => r.status !== 'not_run') ?? results[0];
    suites.push({
      suite: suite.suite,
      file: suite.file,
      service: first?.service ?? suite.service,
      requested_model: first?.requested_model ?? suite.model,
      models: [...new Set(results.map((r) => r.model).filter((m): m is string => m !== null))].sort(),
      baseline: stored?.baseline ? stored.path : null,
      drift: suiteDrift,
    });
  }
  const cases = input.results.map((r) => drifted.get(r.key) ?? r);
  const summary = summarize(cases, suites);
  return {
    schema_version: 1,
    run: {
      ...input.run,
      status: runStatusFor(input.stop),
      exit_code: exitCodeFor(summary, input.stop),
      stop_reason: input.stop?.error ?? null,
    },
    summary,
    suites,
    cases,
  };
}
