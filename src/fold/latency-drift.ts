import type { ResolvedTolerance } from './drift/tolerance.js';
import { percent } from './drift/usage-change.js';
import { formatP } from '../stats/format-p.js';
import { holmAdjust } from '../stats/holm.js';
import { nearestRank } from '../stats/nearest-rank.js';
import { rankSumTest, signTestUpper } from '../stats/rank-sum.js';
import type { LatencySketch } from '../stored/baseline/types.js';
import { DRIFT_SEVERITY, type Drift, type DriftSeverity } from '../record/drift-kinds.js';
import { severityIn } from '../record/severity.js';

/**
 * Samples each side needs before a case's latency is compared at all: below it a rank test
 * cannot reach a usual significance level, and one answer against one answer is mostly
 * network and queueing noise. Such cases still count in the suite's check.
 */
const MIN_LATENCY_SAMPLES = 5;

/** Cases with a latency on both sides the suite's check needs: 5 fair coins all one way is p 0.0625 two-sided. */
const MIN_LATENCY_CASES = 6;

/** One case's latencies tonight and in its baseline. */
export interface LatencyCase {
  case: string;
  /** The answered samples' latencies (ms), every one of them. */
  current: readonly number[];
  baseline: LatencySketch | undefined;
  tolerance: ResolvedTolerance['latency'];
}

export interface LatencyAnalysis {
  /** latency_changed of each case that moved, by case id. */
  caseDrift: Map<string, Drift>;
  /** The suite's latency_changed, when its cases moved together. */
  suiteDrift: Drift | null;
}

interface Figures {
  p50: number;
  p95: number;
}

type Direction = 'slower' | 'faster';

/** Whether a case's latency is compared: it has latencies tonight and in its baseline. */
function comparesLatency(c: LatencyCase): c is LatencyCase & { baseline: LatencySketch } {
  return c.current.length > 0 && c.baseline !== undefined && c.baseline.sample.length > 0;
}

interface LatencyOptions {
  alpha: number;
  candidate: boolean;
  suite: ResolvedTolerance['latency'];
}

/**
 * A suite's latencies, a case at a time, for their verdicts: the suite's check reads sums
 * and counts, so a case is kept only when its own test needs its samples (five or more each
 * side). A suite of 100,000 cases sampled once keeps none of them.
 */
export class LatencyTally {
  private readonly tested: (LatencyCase & { baseline: LatencySketch })[] = [];
  private compared = 0;
  private readonly then = { p50: 0, p95: 0 };
  private readonly now = { p50: 0, p95: 0 };
  private slower = 0;
  private faster = 0;

  add(c: LatencyCase): void {
    if (!comparesLatency(c)) return;
    this.compared++;
    const f = figures(c.current);
    this.then.p50 += c.baseline.p50;
    this.then.p95 += c.baseline.p95;
    this.now.p50 += f.p50;
    this.now.p95 += f.p95;
    if (f.p50 > c.baseline.p50) this.slower++;
    else if (f.p50 < c.baseline.p50) this.faster++;
    if (c.current.length >= MIN_LATENCY_SAMPLES && c.baseline.sample.length >= MIN_LATENCY_SAMPLES)
      this.tested.push(c);
  }

  /**
   * latency_changed of the cases added and of the suite as a whole. A case is flagged when
   * its p50 or p95 moved beyond its tolerance (relative AND absolute) and a two-sided
   * Mann–Whitney test, Holm-adjusted over the suite's tested cases, is significant at
   * `alpha` — so equal latencies flag some case of a suite at most `alpha` of the nights.
   * The suite is flagged when the mean p50 or p95 over the cases both sides have moved
   * beyond the suite's tolerance and a sign test says most cases moved the same way (it
   * sees a slowdown of cases sampled once, which alone prove nothing). A slowdown has the
   * tolerance's severity; a speed-up, and any change in a candidate run (another model is
   * another speed by design), weigh as latency_changed's row of the drift kinds' table says (info).
   */
  analyse(options: LatencyOptions): LatencyAnalysis {
    const tests = this.tested.map((c) => {
      const t = rankSumTest(c.baseline.sample, c.current);
      const shift: Direction = t.greater <= t.less ? 'slower' : 'faster';
      return {
        c,
        now: figures(c.current),
        p: Math.min(1, 2 * Math.min(t.greater, t.less)),
        shift,
        method: t.method,
      };
    });
    const adjusted = holmAdjust(tests.map((t) => t.p));
    const caseDrift = new Map<string, Drift>();
    tests.forEach(({ c, now, shift, method }, i) => {
      const moved = beyond(c.baseline, now, c.tolerance);
      const q = adjusted[i]!;
      if (moved.length === 0 || q > options.alpha) return;
      const direction = directionOf(c.baseline, now, moved);
      // A longer tail over faster answers is no evidence of either: the ranks and the percentiles must agree.
      if (direction !== shift) return;
      const test = `rank test p = ${formatP(q)}${tests.length > 1 ? ' Holm-adjusted' : ''}, ${method}, alpha ${options.alpha}`;
      caseDrift.set(c.case, {
        kind: 'latency_changed',
        severity: severity(direction, c.tolerance.severity, options.candidate),
        baseline: { p50: c.baseline.p50, p95: c.baseline.p95, n: c.baseline.n },
        current: { ...now, n: c.current.length },
        message: `latency ${direction}: ${changes(c.baseline, now)} over ${c.baseline.n} → ${c.current.length} samples (${test})`,
      });
    });
    return { caseDrift, suiteDrift: this.suiteDrift(options) };
  }

  /** The suite's latency_changed over the cases both sides answered, or null. */
  private suiteDrift(options: LatencyOptions): Drift | null {
    const n = this.compared;
    if (n < MIN_LATENCY_CASES) return null;
    const then = { p50: this.then.p50 / n, p95: this.then.p95 / n };
    const now = { p50: this.now.p50 / n, p95: this.now.p95 / n };
    const moved = beyond(then, now, options.suite);
    if (moved.length === 0) return null;
    const direction = directionOf(then, now, moved);
    const [agree, untied] = [direction === 'slower' ? this.slower : this.faster, this.slower + this.faster];
    const p = Math.min(1, 2 * signTestUpper(agree, untied));
    if (p > options.alpha) return null;
    const mean = (f: Figures) => ({ cases: n, p50: Math.round(f.p50), p95: Math.round(f.p95) });
    return {
      kind: 'latency_changed',
      severity: severity(direction, options.suite.severity, options.candidate),
      baseline: mean(then),
      current: mean(now),
      message: `suite latency ${direction} over ${n} cases present in both: mean ${changes(then, now)}; ${agree} of ${untied} cases ${direction} (sign test p = ${formatP(p)}, alpha ${options.alpha})`,
    };
  }
}

function figures(values: readonly number[]): Figures {
  return { p50: nearestRank(values, 0.5)!, p95: nearestRank(values, 0.95)! };
}

/** The percentiles that moved beyond both the relative and the absolute tolerance. */
function beyond(then: Figures, now: Figures, tolerance: ResolvedTolerance['latency']): (keyof Figures)[] {
  return (['p50', 'p95'] as const).filter((k) => {
    const delta = Math.abs(now[k] - then[k]);
    return delta > tolerance.absolute_ms && (then[k] === 0 || delta / then[k] > tolerance.relative);
  });
}

/** Slower when any percentile that moved went up: a longer tail is news even if the median held. */
function directionOf(then: Figures, now: Figures, moved: readonly (keyof Figures)[]): Direction {
  return moved.some((k) => now[k] > then[k]) ? 'slower' : 'faster';
}

/** latency_changed's row of the drift kinds' table, a slowdown weighing as the tolerance says. */
function severity(direction: Direction, slowdown: DriftSeverity, candidate: boolean): DriftSeverity {
  const row = { ...DRIFT_SEVERITY.latency_changed, severity: slowdown };
  return severityIn(row, { candidate, better: direction === 'faster' });
}

/** `p50 800 → 2400 ms (+200%), p95 …`. */
function changes(then: Figures, now: Figures): string {
  return (['p50', 'p95'] as const)
    .map((k) => `${k} ${Math.round(then[k])} → ${Math.round(now[k])} ms (${percent(then[k], now[k])})`)
    .join(', ');
}
