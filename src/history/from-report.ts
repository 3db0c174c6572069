import { failsRun } from '../core/words.js';
import { caseVerdict } from '../fold/case-entry.js';
import { nearestRank } from '../stats/nearest-rank.js';
import type { RunInfo } from '../stored/report/types.js';
import type { SampleResult } from '../stored/journal/records.js';
import type { Drift } from '../record/drift-kinds.js';
import type { CaseError, Usage } from '../core/answer.js';
import { historyRun } from './from-report-v2.js';
import type { HistoryCaseInput, HistoryRunInput } from '../stored/history/types.js';

/** A sample as a schema-1 report.json listed it (one entry per sample, with its drift). */
type CaseResult = Pick<SampleResult, 'suite' | 'case' | 'status' | 'latency_ms' | 'model'> & {
  usage: Usage | null;
  error: CaseError | null;
  drift: Drift[];
};

/** What this adapter reads of a schema-1 report.json (driftcheck 0.1). */
export interface ReportV1Like {
  schema_version: 1;
  run: Pick<RunInfo, 'id' | 'started_at' | 'finished_at' | 'exit_code' | 'status'>;
  suites: { suite: string; models: string[]; pass_rates: { case: string; failing: boolean }[] }[];
  cases: CaseResult[];
}

/**
 * Maps a schema-1 report.json (one entry per sample) onto the history's inputs, samples
 * aggregated per case. Pure. The per-case report of the next schema gets its own adapter.
 */
export function fromReportV1(report: ReportV1Like): { run: HistoryRunInput; cases: HistoryCaseInput[] } {
  const groups = new Map<string, CaseResult[]>();
  for (const sample of report.cases) {
    const key = `${sample.suite}/${sample.case}`;
    const group = groups.get(key);
    if (group) group.push(sample);
    else groups.set(key, [sample]);
  }
  const run = historyRun(report.run, report.suites);
  const failing = new Set(
    report.suites.flatMap((s) => s.pass_rates.filter((p) => p.failing).map((p) => `${s.suite}/${p.case}`)),
  );
  const cases = [...groups.entries()].map(([key, samples]) => aggregate(samples, failing.has(key)));
  return { run, cases };
}

function aggregate(samples: CaseResult[], failingRate: boolean): HistoryCaseInput {
  const first = samples[0]!;
  const answered = samples.filter((s) => s.status !== 'not_run');
  const passes = answered.filter((s) => s.status === 'pass').length;
  const errors = answered.filter((s) => s.status === 'error').length;
  const latencies = answered.map((s) => s.latency_ms).filter((x): x is number => x !== null);
  const withUsage = answered.filter((s) => s.usage?.total_tokens != null);
  const costs = answered.map((s) => s.usage?.cost).filter((x): x is number => typeof x === 'number');
  return {
    suite: first.suite,
    case: first.case,
    // The fold's verdict (a 0.1 report says a case status per sample, not per case); its
    // `failing` flag was the drop test's, and 0.1 let a baseline excuse mostly failing samples.
    status: caseVerdict({
      sent: answered.length,
      errored: errors,
      single: answered.length === 1 ? answered[0]!.status : null,
      failing: answered.length > 1 ? failsRun({ pass: passes, total: answered.length }, failingRate) : null,
    }),
    samples: answered.length,
    passes,
    error_kinds: distinct(answered.map((s) => s.error?.kind)),
    drift_kinds: distinct(samples.flatMap((s) => s.drift.map((d) => d.kind))),
    model: mostFrequent(answered.map((s) => s.model)),
    provider: null,
    tokens:
      withUsage.length === 0
        ? null
        : {
            prompt: sum(withUsage.map((s) => s.usage?.prompt_tokens ?? 0)),
            completion: sum(withUsage.map((s) => s.usage?.completion_tokens ?? 0)),
            total: sum(withUsage.map((s) => s.usage?.total_tokens ?? 0)),
          },
    cost: costs.length === 0 ? null : sum(costs),
    latency_p50_ms: nearestRank(latencies, 0.5),
    latency_p95_ms: nearestRank(latencies, 0.95),
    // driftcheck 0.1 sent no tools.
    tools: null,
  };
}

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

function distinct(xs: (string | null | undefined)[]): string[] {
  return [...new Set(xs.filter((x): x is string => typeof x === 'string'))].sort();
}

function mostFrequent(xs: (string | null)[]): string | null {
  const counts = new Map<string, number>();
  for (const x of xs) if (x !== null) counts.set(x, (counts.get(x) ?? 0) + 1);
  let best: string | null = null;
  for (const [x, n] of counts) if (best === null || n > counts.get(best)!) best = x;
  return best;
}
