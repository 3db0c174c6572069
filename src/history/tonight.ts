import type { Baseline } from '../stored/baseline/types.js';
import type { CaseEntry, SuiteReport } from '../stored/report/types.js';
import type { Drift } from '../record/drift-kinds.js';
import { historyCase, historyRun } from './from-report-v2.js';
import { Spill } from '../fold/spill.js';
import { range } from '../util/columns.js';
import type { HistoryNights } from './columns.js';
import { firstChanged, trendOf } from './trends.js';
import type { HistoryCaseInput, HistoryRun } from '../stored/history/types.js';

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
 * A case's nights are made from the history's columns when the case is annotated.
 */
export function historyAnnotator(
  history: Pick<HistoryNights, 'baselines' | 'nightsOf'>,
  tonight: TonightRun,
  /** Where tonight's case lines wait past the first few thousand (a run folder), else the temp folder. */
  spillDir?: string,
) {
  /** Baseline source run per suite, as tonight compared with it: the history line records it. */
  const sources = new Map<string, string | null>();
  /**
   * Tonight's compact case lines, suite by suite as folded: what the history appends. They
   * wait in a spill (on disk past 2,000): a 100,000-case night held them as objects.
   */
  const spill = new Spill<HistoryCaseInput>(spillDir);
  let count = 0;
  return {
    sources,
    /** Tonight's case lines in the order they were folded, each read once; then let go. */
    async *lines(): AsyncGenerator<HistoryCaseInput> {
      try {
        for await (const line of spill.read(range(count))) if (line) yield line;
      } finally {
        await spill.discard();
      }
    },
    /** Lets tonight's lines go without reading them (a night the history does not take). */
    discard: () => spill.discard(),
    /** Tonight's suite as folded: returns what annotates each of its entries, in plan order. */
    annotate({ suite, baseline }: { suite: SuiteReport; baseline: Pick<Baseline, 'source_run'> | null }) {
      sources.set(suite.suite, baseline?.source_run ?? null);
      const mapped = historyRun(
        {
          id: tonight.id,
          started_at: tonight.started_at,
          finished_at: tonight.started_at,
          exit_code: 0,
          status: 'completed',
        },
        [suite],
      );
      const suites = mapped.suites.map((s) => ({ ...s, baseline_source_run: baseline?.source_run ?? null }));
      const annotateCase = (c: CaseEntry, line: HistoryCaseInput): void => {
        const before = history.nightsOf(c.id);
        if (before.length === 0) return;
        // Tonight as one more night of this case: the run with this case's line alone.
        const run: HistoryRun = { ...mapped, suites, cases: [line] };
        const nights = [...before, { run, entry: line }];
        const trend = trendOf(history, nights);
        if (trend) {
          c.drift.push(trendDrift(trend));
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
      };
      return (c: CaseEntry): void => {
        const line = historyCase(c);
        // Kept once annotated (a trend adds its drift kind to the line), even if annotating failed.
        try {
          annotateCase(c, line);
        } finally {
          spill.put(count++, line);
        }
      };
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
