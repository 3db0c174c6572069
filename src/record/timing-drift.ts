import { percent } from '../util/numbers.js';
import { formatP } from '../stats/format-p.js';
import { holmAdjust } from '../stats/holm.js';
import { nearestRank } from '../stats/nearest-rank.js';
import { rankSumTest, signTestUpper } from '../stats/rank-sum.js';
import type { LatencySketch } from '../stats/sketch.js';
import type { DriftSeverity } from './drift-kinds.js';
import type { RecordedTolerance } from './field.js';
import type { FieldDrift } from './served-change.js';
import { type DriftKindRow, severityIn } from './severity.js';

/**
 * Samples each side needs before a case's timing is compared at all: below it a rank test
 * cannot reach a usual significance level, and one answer against one answer is mostly
 * network and queueing noise. Such cases still count in the suite's check.
 */
const MIN_TIMING_SAMPLES = 5;

/** Cases with a timing on both sides the suite's check needs: 5 fair coins all one way is p 0.0625 two-sided. */
const MIN_TIMING_CASES = 6;

/**
 * One timing compared with its baseline: latency, time to first token, throughput. Its drift
 * kind and that kind's row of the drift kinds' table, what it is called, its unit, and
 * whether a higher value is the slower one (a latency) or the faster (tokens per second).
 */
export interface Timing<K extends string = string> {
  kind: K;
  row: DriftKindRow;
  noun: string;
  unit: string;
  higherIsSlower: boolean;
}

/**
 * A latency's default tolerance — moved by more than half and more than 200 ms — which a
 * suite's `drift.latency` overrides and a time to first token is held to.
 */
export const LATENCY_TOLERANCE = { relative: 0.5, absolute_ms: 200 } as const;

/** How far a timing must move to be drift: beyond a share AND an amount (in its unit), and what a slowdown weighs. */
export interface TimingTolerance {
  relative: number;
  absolute: number;
  severity: DriftSeverity;
}

/** A `drift.latency` tolerance (milliseconds) as a timing's: what a latency and a time to first token are held to. */
export function latencyTolerance(t: RecordedTolerance['latency']): TimingTolerance {
  return { relative: t.relative, absolute: t.absolute_ms, severity: t.severity };
}

/** One case's timings tonight and in its baseline. */
export interface TimingCase {
  case: string;
  /** The answered samples' values, every one of them. */
  current: readonly number[];
  baseline: LatencySketch | undefined;
  tolerance: TimingTolerance;
}

export interface TimingAnalysis<K extends string = string> {
  /** The drift of each case that moved, by case id. */
  caseDrift: Map<string, FieldDrift<K>>;
  /** The suite's, when its cases moved together. */
  suiteDrift: FieldDrift<K> | null;
}

interface Figures {
  p50: number;
  p95: number;
}

type Direction = 'slower' | 'faster';

/** Whether a case's timing is compared: it has values tonight and in its baseline. */
function compares(c: TimingCase): c is TimingCase & { baseline: LatencySketch } {
  return c.current.length > 0 && c.baseline !== undefined && c.baseline.sample.length > 0;
}

export interface TimingOptions {
  alpha: number;
  candidate: boolean;
  suite: TimingTolerance;
}

/**
 * A suite's timings, a case at a time, for their verdicts: the suite's check reads sums
 * and counts, so a case is kept only when its own test needs its samples (five or more each
 * side). A suite of 100,000 cases sampled once keeps none of them.
 */
export class TimingTally<K extends string> {
  /** The cases whose own test runs, with tonight's figures (computed once, in add). */
  private readonly tested: { c: TimingCase & { baseline: LatencySketch }; now: Figures }[] = [];
  private compared = 0;
  private readonly then = { p50: 0, p95: 0 };
  private readonly now = { p50: 0, p95: 0 };
  private slower = 0;
  private faster = 0;

  constructor(private readonly timing: Timing<K>) {}

  add(c: TimingCase): void {
    if (!compares(c)) return;
    this.compared++;
    const f = figures(c.current);
    this.then.p50 += c.baseline.p50;
    this.then.p95 += c.baseline.p95;
    this.now.p50 += f.p50;
    this.now.p95 += f.p95;
    const dir = this.direction(c.baseline.p50, f.p50);
    if (dir === 'slower') this.slower++;
    else if (dir === 'faster') this.faster++;
    if (c.current.length >= MIN_TIMING_SAMPLES && c.baseline.sample.length >= MIN_TIMING_SAMPLES)
      this.tested.push({ c, now: f });
  }

  /**
   * The drift of the cases added and of the suite as a whole. A case is flagged when its
   * p50 or p95 moved beyond its tolerance (relative AND absolute) and a two-sided
   * Mann–Whitney test, Holm-adjusted over the suite's tested cases, is significant at
   * `alpha` — so equal timings flag some case of a suite at most `alpha` of the nights.
   * The suite is flagged when the mean p50 or p95 over the cases both sides have moved
   * beyond the suite's tolerance and a sign test says most cases moved the same way (it
   * sees a slowdown of cases sampled once, which alone prove nothing). A slowdown has the
   * tolerance's severity; a speed-up, and any change in a candidate run (another model is
   * another speed by design), weigh as the kind's row of the drift kinds' table says.
   */
  analyse(options: TimingOptions): TimingAnalysis<K> {
    const suiteDrift = this.suiteDrift(options);
    // A shared move the suite's check flagged is drift of every case that made it; one it let
    // pass is the night's, and a case is judged on what it did beyond it.
    const common = suiteDrift ? 1 : this.commonShift();
    const tests = this.tested.map(({ c, now }) => {
      const t = rankSumTest(
        c.baseline.sample.map((v) => v * common),
        c.current,
      );
      const higher = t.greater <= t.less;
      const shift: Direction = higher === this.timing.higherIsSlower ? 'slower' : 'faster';
      return {
        c,
        now,
        p: Math.min(1, 2 * Math.min(t.greater, t.less)),
        shift,
        method: t.method,
      };
    });
    const adjusted = holmAdjust(tests.map((t) => t.p));
    const caseDrift = new Map<string, FieldDrift<K>>();
    tests.forEach(({ c, now, shift, method }, i) => {
      const expected = { p50: c.baseline.p50 * common, p95: c.baseline.p95 * common };
      const moved = beyond(expected, now, c.tolerance);
      const q = adjusted[i]!;
      if (moved.length === 0 || q > options.alpha) return;
      const direction = this.directionOf(expected, now, moved);
      // A longer tail over faster answers is no evidence of either: the ranks and the percentiles must agree.
      if (direction !== shift) return;
      const test = `rank test p = ${formatP(q)}${tests.length > 1 ? ' Holm-adjusted' : ''}, ${method}, alpha ${options.alpha}`;
      caseDrift.set(c.case, {
        kind: this.timing.kind,
        severity: this.severity(direction, c.tolerance.severity, options.candidate),
        baseline: { p50: c.baseline.p50, p95: c.baseline.p95, n: c.baseline.n },
        current: { ...now, n: c.current.length },
        message: `${this.timing.noun} ${direction}: ${this.changes(c.baseline, now)} over ${c.baseline.n} → ${c.current.length} samples${beside(common)} (${test})`,
      });
    });
    return { caseDrift, suiteDrift };
  }

  /**
   * The factor by which the suite's tested cases moved together: the median over them of
   * tonight's p50 over the baseline's. Every case of a night shares its provider's load, so
   * a night 30 % slower as a whole moves each case's samples at once — the rank test sees
   * that shift in every case, and a p95 of ten samples crosses the tolerance by chance on
   * top of it. When the suite's check let that move pass, a case is judged against its
   * baseline moved by this factor: on what the case did beyond the night. 1 with fewer
   * tested cases than the suite's check needs, where a shared move cannot be told apart.
   */
  private commonShift(): number {
    if (this.tested.length < MIN_TIMING_CASES) return 1;
    const ratios = this.tested
      .filter(({ c }) => c.baseline.p50 > 0)
      .map(({ c, now }) => now.p50 / c.baseline.p50);
    return ratios.length < MIN_TIMING_CASES ? 1 : medianOf(ratios);
  }

  /** The suite's drift over the cases both sides answered, or null. */
  private suiteDrift(options: TimingOptions): FieldDrift<K> | null {
    const n = this.compared;
    if (n < MIN_TIMING_CASES) return null;
    const then = { p50: this.then.p50 / n, p95: this.then.p95 / n };
    const now = { p50: this.now.p50 / n, p95: this.now.p95 / n };
    const moved = beyond(then, now, options.suite);
    if (moved.length === 0) return null;
    const direction = this.directionOf(then, now, moved);
    const [agree, untied] = [direction === 'slower' ? this.slower : this.faster, this.slower + this.faster];
    const p = Math.min(1, 2 * signTestUpper(agree, untied));
    if (p > options.alpha) return null;
    const mean = (f: Figures) => ({ cases: n, p50: round(f.p50), p95: round(f.p95) });
    return {
      kind: this.timing.kind,
      severity: this.severity(direction, options.suite.severity, options.candidate),
      baseline: mean(then),
      current: mean(now),
      message: `suite ${this.timing.noun} ${direction} over ${n} cases present in both: mean ${this.changes(then, now)}; ${agree} of ${untied} cases ${direction} (sign test p = ${formatP(p)}, alpha ${options.alpha})`,
    };
  }

  /** Which way a value moved from `then` to `now`, or null when it did not. */
  private direction(then: number, now: number): Direction | null {
    if (now === then) return null;
    return now > then === this.timing.higherIsSlower ? 'slower' : 'faster';
  }

  /** Slower when any percentile that moved went the slow way: a longer tail is news even if the median held. */
  private directionOf(then: Figures, now: Figures, moved: readonly (keyof Figures)[]): Direction {
    return moved.some((k) => this.direction(then[k], now[k]) === 'slower') ? 'slower' : 'faster';
  }

  /** The kind's row, a slowdown weighing as the tolerance says. */
  private severity(direction: Direction, slowdown: DriftSeverity, candidate: boolean): DriftSeverity {
    return severityIn(
      { ...this.timing.row, severity: slowdown },
      { candidate, better: direction === 'faster' },
    );
  }

  /** `p50 800 → 2400 ms (+200%), p95 …`. */
  private changes(then: Figures, now: Figures): string {
    return (['p50', 'p95'] as const)
      .map(
        (k) => `${k} ${round(then[k])} → ${round(now[k])} ${this.timing.unit} (${percent(then[k], now[k])})`,
      )
      .join(', ');
  }
}

/**
 * The middle value, the mean of the two middle ones for an even count: a centre, not an
 * observed value (nearestRank's lower middle of an even count biased the shared move low,
 * and equal timings then drew more than alpha's share of case flags).
 */
function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** `; judged beyond ×1.32, the move the suite's cases shared`: said when they moved together by a tenth or more. */
function beside(common: number): string {
  if (Math.abs(Math.log(common)) < Math.log(1.1)) return '';
  return `; judged beyond ×${common.toFixed(2)}, the move the suite's cases shared`;
}

function figures(values: readonly number[]): Figures {
  return { p50: nearestRank(values, 0.5)!, p95: nearestRank(values, 0.95)! };
}

/** Whole numbers from 10 up, one decimal below (tokens per second can be small). */
function round(v: number): number {
  return Math.abs(v) >= 10 ? Math.round(v) : Math.round(v * 10) / 10;
}

/** The percentiles that moved beyond both the relative and the absolute tolerance. */
function beyond(then: Figures, now: Figures, tolerance: TimingTolerance): (keyof Figures)[] {
  return (['p50', 'p95'] as const).filter((k) => {
    const delta = Math.abs(now[k] - then[k]);
    return delta > tolerance.absolute && (then[k] === 0 || delta / then[k] > tolerance.relative);
  });
}
