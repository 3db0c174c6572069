import type { Baseline, CaseEntry, Drift, SuiteReport } from '../types.js';
import { fromReportV2 } from './from-report-v2.js';
import { type CaseNight, nightsByCase } from './nights.js';
import { firstChanged, trendOf } from './trends.js';
import type { History, HistoryCaseInput, HistoryRun } from './types.js';

/** Nights a changed case shows in tonight's report, before tonight. */
const STRIP_NIGHTS = 14;

export interface TonightRun {
  id: string;
  started_at: string;
}

/**
 * What tonight's report takes from the history, suite by suite as the run is folded: for
 * each case that failed, errored or drifted, its last nights and the night its current
 * streak began (tonight included), and for every case the slow-drift detector over the
 * nights since the suite's last baseline, tonight included (`pass_rate_trending_down`, warn).
 * The history is indexed once; each suite adds tonight's nights to it.
 */
export function historyAnnotator(history: History, tonight: TonightRun) {
  let index: Map<string, CaseNight[]> | null = null;
  /** Baseline source run per suite, as tonight compared with it: the history line records it. */
  const sources = new Map<string, string | null>();
  /** Tonight's compact case lines, suite by suite as folded: what the history appends. */
  const lines: HistoryCaseInput[] = [];
  return {
    sources,
    lines,
    annotate({
      suite,
      cases,
      baseline,
    }: {
      suite: SuiteReport;
      cases: CaseEntry[];
      baseline: Baseline | null;
    }): void {
      index ??= nightsByCase(history);
      sources.set(suite.suite, baseline?.source_run ?? null);
      const mapped = fromReportV2({
        schema_version: 2,
        run: {
          id: tonight.id,
          started_at: tonight.started_at,
          finished_at: tonight.started_at,
          exit_code: 0,
          status: 'completed',
        },
        suites: [{ ...suite, baseline: suite.baseline }],
        cases,
      });
      const run: HistoryRun = {
        ...mapped.run,
        suites: mapped.run.suites.map((s) => ({ ...s, baseline_source_run: baseline?.source_run ?? null })),
        cases: mapped.cases,
      };
      cases.forEach((c, i) => {
        const before = index!.get(c.id);
        if (!before?.length) return;
        const nights = [...before, { run, entry: run.cases[i]! }];
        const trend = trendOf(history, nights);
        if (trend) {
          c.drift.push(trendDrift(trend));
          const line = run.cases[i]!;
          line.drift_kinds = [...new Set([...line.drift_kinds, trend.kind])].sort();
        }
        if (c.status === 'pass' && !c.drift.some((d) => d.severity !== 'info')) return;
        c.history = {
          nights: before.slice(-STRIP_NIGHTS).map(({ run: r, entry }) => ({
            run_id: r.run_id,
            started_at: r.started_at,
            status: entry.status,
            passes: entry.passes,
            samples: entry.samples,
          })),
          since: firstChanged(nights),
        };
      });
      lines.push(...run.cases);
    },
  };
}

function trendDrift(trend: NonNullable<ReturnType<typeof trendOf>>): Drift {
  return {
    kind: trend.kind,
    severity: trend.severity,
    baseline: trend.baseline,
    current: { rate: trend.current, began: trend.began, raised: trend.raised },
    message: trend.message,
  };
}
