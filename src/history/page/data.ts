import { nearestRank } from '../../stats/nearest-rank.js';
import { nightsByCase } from '../nights.js';
import { trendOf } from '../trends.js';
import type { History, HistoryCaseStatus, HistoryRun } from '../types.js';
import { runEvents, suiteEvents, type TimelineEvent } from './events.js';

/**
 * What the trend page embeds: compact, so 365 nights × 1,000 cases stay a few MB. A case's
 * nights are two strings with one character per night of the whole history:
 * `status` p pass · f fail · e error · n not run · `.` absent; `rate` 0–9 the pass share in
 * tenths, `a` all passed, `.` no sample.
 */
export interface TrendPage {
  nights: {
    id: string;
    at: string;
    status: string;
    exit: number;
    commit: string | null;
    branch: string | null;
  }[];
  suites: SuiteSeries[];
  cases: CasePage[];
  /** Run-level events (paused runs). */
  events: TimelineEvent[];
  /** Link template to a night's report: `{run}`, `{suite}`, `{case}` are filled in. */
  link: string;
  problems: number;
}

export interface SuiteSeries {
  suite: string;
  /** Per night (null when the suite did not run): passes / samples over all cases. */
  rate: (number | null)[];
  cost: (number | null)[];
  tokens: (number | null)[];
  /** Median of the cases' p50 latency, and the 95th percentile of their p95. */
  p50: (number | null)[];
  p95: (number | null)[];
  events: TimelineEvent[];
}

export interface CasePage {
  id: string;
  suite: string;
  status: string;
  rate: string;
  /** Night the current failing streak began (null when passing now). */
  failing_since: number | null;
  /** Pass ↔ fail/error changes between nights that ran: how flaky the case is. */
  flips: number;
  /** Slow drift since the last baseline: night it began, night it was flagged, rates. */
  trend: { began: number; raised: number; before: number; after: number } | null;
}

const STATUS_CHAR: Record<HistoryCaseStatus, string> = { pass: 'p', fail: 'f', error: 'e', not_run: 'n' };

export function trendPageData(history: History, link: string): TrendPage {
  const index = new Map(history.runs.map((run, i) => [run, i]));
  const width = history.runs.length;
  const cases: CasePage[] = [];
  for (const [id, nights] of nightsByCase(history)) {
    const status = Array<string>(width).fill('.');
    const rate = Array<string>(width).fill('.');
    for (const { run, entry } of nights) {
      const i = index.get(run)!;
      status[i] = STATUS_CHAR[entry.status];
      if (entry.samples > 0) {
        const tenths = Math.floor((10 * entry.passes) / entry.samples);
        rate[i] = entry.passes === entry.samples ? 'a' : String(tenths);
      }
    }
    const trend = trendOf(history, nights);
    const at = (runId: string): number => history.runs.findIndex((r) => r.run_id === runId);
    cases.push({
      id,
      suite: nights[0]!.entry.suite,
      status: status.join(''),
      rate: rate.join(''),
      failing_since: failingSince(status),
      flips: flips(status),
      trend: trend
        ? {
            began: at(trend.began.run_id),
            raised: at(trend.raised.run_id),
            before: trend.baseline,
            after: trend.current,
          }
        : null,
    });
  }
  const suites = [...new Set(history.runs.flatMap((r) => r.suites.map((s) => s.suite)))].sort();
  return {
    nights: history.runs.map((r) => ({
      id: r.run_id,
      at: r.started_at,
      status: r.status,
      exit: r.exit_code,
      commit: r.git?.commit ?? null,
      branch: r.git?.branch ?? null,
    })),
    suites: suites.map((suite) => ({ ...series(history.runs, suite), events: suiteEvents(history, suite) })),
    cases,
    events: runEvents(history.runs),
    link,
    problems: history.problems.length,
  };
}

function failingSince(status: string[]): number | null {
  let since: number | null = null;
  for (let i = 0; i < status.length; i++) {
    const s = status[i]!;
    if (s === 'f' || s === 'e') since ??= i;
    else if (s === 'p') since = null;
  }
  return since;
}

function flips(status: string[]): number {
  let count = 0;
  let last: boolean | null = null;
  for (const s of status) {
    if (s !== 'p' && s !== 'f' && s !== 'e') continue;
    const pass = s === 'p';
    if (last !== null && pass !== last) count++;
    last = pass;
  }
  return count;
}

function series(runs: readonly HistoryRun[], suite: string): Omit<SuiteSeries, 'events'> {
  const out: Omit<SuiteSeries, 'events'> = { suite, rate: [], cost: [], tokens: [], p50: [], p95: [] };
  for (const run of runs) {
    const cases = run.cases.filter((c) => c.suite === suite);
    const present = run.suites.some((s) => s.suite === suite) || cases.length > 0;
    const samples = cases.reduce((n, c) => n + c.samples, 0);
    const costs = cases.filter((c) => c.cost !== null);
    const tokens = cases.filter((c) => c.tokens !== null);
    const p50s = cases.map((c) => c.latency_p50_ms).filter((x): x is number => x !== null);
    const p95s = cases.map((c) => c.latency_p95_ms).filter((x): x is number => x !== null);
    out.rate.push(present && samples > 0 ? cases.reduce((n, c) => n + c.passes, 0) / samples : null);
    out.cost.push(costs.length > 0 ? costs.reduce((n, c) => n + c.cost!, 0) : null);
    out.tokens.push(tokens.length > 0 ? tokens.reduce((n, c) => n + c.tokens!.total, 0) : null);
    out.p50.push(nearestRank(p50s, 0.5));
    out.p95.push(nearestRank(p95s, 0.95));
  }
  return out;
}
