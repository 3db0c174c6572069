import { type DiffOptions, diffSuite } from '../baseline/diff.js';
import { tolerancesOf } from '../baseline/tolerance.js';
import type { StopReason } from '../run/execute.js';
import type { Baseline, CaseResult, Report, RunInfo, Suite, SuiteReport } from '../types.js';
import { NONE } from '../run/result.js';
import { analysePassRates } from './pass-rates.js';
import { exitCodeFor, failingUnits, runStatusFor, summarize } from './verdict.js';

export interface BuildReportInput {
  /** Everything about the run except what the verdict decides. */
  run: Omit<RunInfo, 'status' | 'exit_code' | 'stop_reason'>;
  stop: StopReason | null;
  /** The suites the plan touched (a loaded Suite, or a report's suite entry when merging). */
  suites: readonly (Pick<Suite, 'suite' | 'file' | 'service' | 'model'> &
    Partial<Pick<Suite, 'drift' | 'cases'>>)[];
  /**
   * One result per planned sample (not_run included). The report takes them over: each
   * one's `drift` is set in place, and they become the report's `cases` (copying 100,000
   * results just to add their drift held every result twice while the reports were written).
   */
  results: readonly CaseResult[];
  /** Baseline per suite name (null when the suite has none yet), and where it lives. */
  baselines: ReadonlyMap<string, { baseline: Baseline | null; path: string }>;
  /** False when the plan covered only part of the suites (filter, shard): no missing_case then. */
  complete: boolean;
  diff?: DiffOptions;
  /** Significance level of the pass-rate tests (default 0.05). */
  alpha?: number;
}

/**
 * The repeat index each case's case-level drift is attached to: its first sample in the
 * run that was sent. One pass, not one scan per sample (a 1,000-case suite at 10 repeats
 * would otherwise take 10^8 steps).
 */
function firstRepeats(results: readonly CaseResult[]): Map<string, number> {
  const first = new Map<string, number>();
  for (const r of results) {
    if (r.status === 'not_run') continue;
    const seen = first.get(r.case);
    if (seen === undefined || r.repeat < seen) first.set(r.case, r.repeat);
  }
  return first;
}

/**
 * Assembles the finished report: drift against baselines, counts, verdict and exit code.
 * Reporters only render what this returns. The results are taken over (see `results`).
 */
export function buildReport(input: BuildReportInput): Report {
  const bySuite = new Map<string, CaseResult[]>();
  for (const result of input.results) {
    const list = bySuite.get(result.suite) ?? [];
    list.push(result);
    bySuite.set(result.suite, list);
  }
  const suites: SuiteReport[] = [];
  for (const suite of input.suites) {
    const results = bySuite.get(suite.suite) ?? [];
    const stored = input.baselines.get(suite.suite) ?? null;
    const { byKey, suiteDrift } = diffSuite({
      suite: suite.suite,
      results,
      baseline: stored?.baseline ?? null,
      complete: input.complete && input.stop === null,
      // Per-suite and per-case `drift:` tolerances (a merged report without the suites uses the defaults).
      ...(suite.cases
        ? { tolerances: tolerancesOf({ cases: suite.cases, ...(suite.drift ? { drift: suite.drift } : {}) }) }
        : {}),
      ...(input.diff ? { options: input.diff } : {}),
    });
    const rates = analysePassRates(results, stored?.baseline ?? null, input.alpha);
    const repeated = new Set(rates.stats.map((s) => s.case));
    const firsts = repeated.size > 0 ? firstRepeats(results) : null;
    for (const result of results) {
      let drift = byKey.get(result.key) ?? [];
      if (repeated.has(result.case)) {
        // One sample of a repeated case proves nothing alone: the pass-rate test decides.
        drift = drift.filter((d) => d.kind !== 'regressed' && d.kind !== 'fixed');
        const dropped = rates.caseDrift.get(result.case);
        if (dropped && result.repeat === firsts?.get(result.case)) drift = [dropped, ...drift];
      }
      result.drift = drift.length === 0 ? NONE : drift;
    }
    if (rates.suiteDrift) suiteDrift.push(rates.suiteDrift);
    const first = results.find((r) => r.status !== 'not_run') ?? results[0];
    suites.push({
      suite: suite.suite,
      file: suite.file,
      service: first?.service ?? suite.service,
      requested_model: first?.requested_model ?? suite.model,
      models: [...new Set(results.map((r) => r.model).filter((m): m is string => m !== null))].sort(),
      baseline: stored?.baseline ? stored.path : null,
      drift: suiteDrift,
      pass_rates: rates.stats,
    });
  }
  const cases = [...input.results];
  const summary = summarize(cases, suites);
  const { id, ...runRest } = input.run;
  return {
    schema_version: 1,
    run: {
      // id and status first: `--resume` reads a report's status from the file's head.
      id,
      status: runStatusFor(input.stop),
      exit_code: exitCodeFor(summary, input.stop, failingUnits(cases, suites)),
      ...runRest,
      stop_reason: input.stop?.error ?? null,
    },
    summary,
    suites,
    cases,
  };
}
