import { type TrendSource, trendSourceOf } from '../source.js';
import { trendStateOf } from '../trends.js';
import type {
  History,
  HistoryCaseStatus,
  HistoryRunInput,
  HistoryToolCounts,
} from '../../stored/history/types.js';
import { runEvents, suiteEvents, type TimelineEvent } from './events.js';

/**
 * What the trend page embeds: compact, so 365 nights × 1,000 cases stay a few MB. A case's
 * nights are two strings with one character per night of the whole history:
 * `status` p pass · f fail · e error · n not run · `.` absent; `passes` the night's pass
 * count as one character of COUNT_DIGITS out of the case's usual `samples`, `~` when the
 * night's exact counts are in `other` (another sample count, or 64 passes and more), `.` no
 * sample. Exact counts, not a bucket: a reviewer reads 1/10, not "10–19 %".
 */
export interface TrendPage {
  nights: {
    id: string;
    at: string;
    /** The night as the page names it: its date, with the time (and run id) when the date is shared. */
    label: string;
    /** The night under a chart's axis and over the heat map's column, short (axisLabels). */
    axis: string;
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

interface SuiteSeries {
  suite: string;
  /** Per night (null when the suite did not run): passes and samples over all its cases. */
  passes: (number | null)[];
  samples: (number | null)[];
  /** USD per 1,000 cases, over the cases that reported a cost (null: none did, or it did not run). */
  cost_per_1000: (number | null)[];
  tokens: (number | null)[];
  /** Median of the cases' p50 latency, and the 95th percentile of their p95. */
  p50: (number | null)[];
  p95: (number | null)[];
  /**
   * Per night, tool-call counts summed over the suite's cases with tools:
   * [answered, triggered, valid] (null when none ran); absent when no case ever had tools.
   */
  tools?: (ToolCounts | null)[];
  /**
   * Per night, the conversations' counts summed over the suite's conversation cases:
   * [samples, steps, within max_steps] (null when none ran); absent when no case ever was one.
   */
  loops?: (LoopCounts | null)[];
  /**
   * Per night, the median of its streamed cases' median time to first token (ms) and how
   * many cases were streamed (null when none was); absent when no case ever was.
   */
  ttft?: ([number, number] | null)[];
  events: TimelineEvent[];
}

/** [answered, triggered, valid]: see HistoryToolCounts. */
type ToolCounts = [number, number, number];
/** [samples, steps, within max_steps]: see HistoryLoop. */
type LoopCounts = [number, number, number];

interface CasePage {
  id: string;
  suite: string;
  status: string;
  passes: string;
  /** The case's usual samples per night. */
  samples: number;
  /** Nights whose counts `passes` cannot hold: night → [passes, samples]. */
  other?: Record<number, [number, number]>;
  /** Tool-call counts by night, for the nights the case had tools; absent for a case that never did. */
  tools?: Record<number, ToolCounts>;
  /** A conversation's nights: [samples, steps, within max_steps, trajectory digest]; absent for a case that never was one. */
  loops?: Record<number, [number, number, number, string]>;
  /** Its median time to first token (ms) by night, for the nights it was streamed; absent for a case never streamed. */
  ttft?: Record<number, number>;
  /** Night the current failing streak began (null when passing now). */
  failing_since: number | null;
  /** Pass ↔ fail/error changes between nights that ran: how flaky the case is. */
  flips: number;
  /** Slow drift since the last baseline: night it began, night it was flagged, rates. */
  trend: { began: number; raised: number; before: number; after: number } | null;
  /**
   * Where the detector stands when it raised no alarm: the pass counts the case is held to,
   * the samples it needs before it may raise one, and the night a dip being weighed began.
   */
  watch: { passes: number; samples: number; warmup: number; since: number | null } | null;
}

/** One character per pass count 0–63; `.` and `~` are kept for "no sample" and "see other". */
export const COUNT_DIGITS = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/';

const STATUS_CHAR: Record<HistoryCaseStatus, string> = { pass: 'p', fail: 'f', error: 'e', not_run: 'n' };

export function trendPageData(from: History | TrendSource, link: string): TrendPage {
  const history = trendSourceOf(from);
  const index = new Map<HistoryRunInput, number>(history.runs.map((run, i) => [run, i]));
  const width = history.runs.length;
  const cases: CasePage[] = [];
  const at = (runId: string): number => history.runs.findIndex((r) => r.run_id === runId);
  for (const [id, nights] of history.cases()) {
    const status = Array<string>(width).fill('.');
    const passes = Array<string>(width).fill('.');
    const samples = usualSamples(nights.map((n) => n.entry.samples));
    const other: Record<number, [number, number]> = {};
    const tools: Record<number, ToolCounts> = {};
    const loops: Record<number, [number, number, number, string]> = {};
    const ttft: Record<number, number> = {};
    for (const { run, entry } of nights) {
      const i = index.get(run)!;
      status[i] = STATUS_CHAR[entry.status];
      if (entry.tools) tools[i] = toolCounts(entry.tools);
      if (entry.loop) loops[i] = [entry.samples, entry.loop.steps, entry.loop.within, entry.loop.trajectory];
      if (entry.ttft_p50_ms != null) ttft[i] = entry.ttft_p50_ms;
      if (entry.samples === 0) continue;
      const digit = entry.samples === samples ? COUNT_DIGITS[entry.passes] : undefined;
      passes[i] = digit ?? '~';
      if (!digit) other[i] = [entry.passes, entry.samples];
    }
    const { alarm: trend, watch } = trendStateOf(history, nights);
    cases.push({
      id,
      suite: nights[0]!.entry.suite,
      status: status.join(''),
      passes: passes.join(''),
      samples,
      ...(Object.keys(other).length ? { other } : {}),
      ...(Object.keys(tools).length ? { tools } : {}),
      ...(Object.keys(loops).length ? { loops } : {}),
      ...(Object.keys(ttft).length ? { ttft } : {}),
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
      watch: watch
        ? {
            passes: watch.reference.passes,
            samples: watch.reference.samples,
            warmup: watch.warmup,
            since: watch.since ? at(watch.since.run_id) : null,
          }
        : null,
    });
  }
  const labels = nightLabels(history.runs);
  const axis = axisLabels(history.runs);
  const suites = [...new Set(history.runs.flatMap((r) => r.suites.map((s) => s.suite)))].sort();
  return {
    nights: history.runs.map((r, i) => ({
      id: r.run_id,
      at: r.started_at,
      label: labels[i]!,
      axis: axis[i]!,
      status: r.status,
      exit: r.exit_code,
      commit: r.git?.commit ?? null,
      branch: r.git?.branch ?? null,
    })),
    suites: suites.map((suite) => ({ ...series(history, suite), events: suiteEvents(history, suite) })),
    cases,
    events: runEvents(history.runs),
    link,
    problems: history.problems.length,
  };
}

/** The commonest sample count of a case's nights (the smaller on a tie), 0 when none. */
function usualSamples(counts: readonly number[]): number {
  const seen = new Map<number, number>();
  for (const n of counts) if (n > 0) seen.set(n, (seen.get(n) ?? 0) + 1);
  let best = 0;
  let times = 0;
  for (const [n, k] of seen) if (k > times || (k === times && n < best)) [best, times] = [n, k];
  return best;
}

/**
 * Names nights so no two read alike: the UTC date; with its time when another night shares
 * the date (a re-run, a manual night); with the run id when they share the minute too.
 */
export function nightLabels(runs: readonly { run_id: string; started_at: string }[]): string[] {
  const count = (key: (r: { run_id: string; started_at: string }) => string) => {
    const seen = new Map<string, number>();
    for (const r of runs) seen.set(key(r), (seen.get(key(r)) ?? 0) + 1);
    return (r: { run_id: string; started_at: string }) => seen.get(key(r))!;
  };
  const date = (r: { started_at: string }) => r.started_at.slice(0, 10);
  const minute = (r: { started_at: string }) => `${date(r)} ${r.started_at.slice(11, 16)}`;
  const onDate = count(date);
  const atMinute = count(minute);
  return runs.map((r) =>
    onDate(r) === 1 ? date(r) : atMinute(r) === 1 ? `${minute(r)} UTC` : `${minute(r)} UTC · ${r.run_id}`,
  );
}

/**
 * Nights as an axis names them, short enough for three under a small chart: the date
 * (`2026-11-28`); the time alone when every night is of one date (`06:37`, with seconds when
 * two share a minute); else month and day, with the time on a date two nights share
 * (`11-28 06:37`). The readouts and lists name a night whole (nightLabels).
 */
export function axisLabels(runs: readonly { started_at: string }[]): string[] {
  const date = (r: { started_at: string }) => r.started_at.slice(0, 10);
  const count = (key: (r: { started_at: string }) => string) => {
    const seen = new Map<string, number>();
    for (const r of runs) seen.set(key(r), (seen.get(key(r)) ?? 0) + 1);
    return (r: { started_at: string }) => seen.get(key(r))!;
  };
  const onDate = count(date);
  const atMinute = count((r) => r.started_at.slice(0, 16));
  const time = (r: { started_at: string }) => r.started_at.slice(11, atMinute(r) > 1 ? 19 : 16);
  if (runs.length > 1 && runs.every((r) => onDate(r) === runs.length)) return runs.map(time);
  if (runs.every((r) => onDate(r) === 1)) return runs.map(date);
  return runs.map((r) => `${r.started_at.slice(5, 10)}${onDate(r) > 1 ? ` ${time(r)}` : ''}`);
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

const toolCounts = (t: HistoryToolCounts): ToolCounts => [t.answered, t.triggered, t.valid];

function series(history: TrendSource, suite: string): Omit<SuiteSeries, 'events'> {
  const out: Omit<SuiteSeries, 'events'> = {
    suite,
    passes: [],
    samples: [],
    cost_per_1000: [],
    tokens: [],
    p50: [],
    p95: [],
  };
  const tools: (ToolCounts | null)[] = [];
  const loops: (LoopCounts | null)[] = [];
  const ttft: ([number, number] | null)[] = [];
  history.runs.forEach((run, night) => {
    const f = history.suiteNight(night, suite);
    const present = run.suites.some((s) => s.suite === suite) || (f?.cases ?? 0) > 0;
    const samples = f?.samples ?? 0;
    out.passes.push(present && samples > 0 ? f!.passes : null);
    out.samples.push(present && samples > 0 ? samples : null);
    // Per 1,000 cases (as compare.html says cost): a cheap suite's night is cents, not $0.0000.
    out.cost_per_1000.push(f && f.costed > 0 ? (f.cost / f.costed) * 1000 : null);
    out.tokens.push(f && f.tokened > 0 ? f.tokens : null);
    out.p50.push(f?.p50 ?? null);
    out.p95.push(f?.p95 ?? null);
    tools.push(f?.tools ? [...f.tools] : null);
    loops.push(f?.loops ? [...f.loops] : null);
    ttft.push(f && f.ttft !== null ? [f.ttft, f.streamed] : null);
  });
  return {
    ...out,
    ...(tools.some((t) => t !== null) ? { tools } : {}),
    ...(loops.some((l) => l !== null) ? { loops } : {}),
    ...(ttft.some((t) => t !== null) ? { ttft } : {}),
  };
}
