import type { ResolvedTolerance } from './drift/tolerance.js';
import type { LatencySketch } from '../stats/sketch.js';
import { DRIFT_SEVERITY, type Drift } from '../record/drift-kinds.js';
import { latencyTolerance, type Timing, TimingTally } from '../record/timing-drift.js';

/** A case's latency, as record/timing-drift.ts compares timings: latency_changed. */
const LATENCY: Timing<'latency_changed'> = {
  kind: 'latency_changed',
  row: DRIFT_SEVERITY.latency_changed,
  noun: 'latency',
  unit: 'ms',
  higherIsSlower: true,
};

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

/**
 * A suite's latencies, a case at a time, for latency_changed: the timing test of
 * record/timing-drift.ts (a Holm-adjusted rank test per case, a sign test for the suite)
 * with the suite's and each case's latency tolerance.
 */
export class LatencyTally {
  private readonly tally = new TimingTally(LATENCY);

  add(c: LatencyCase): void {
    this.tally.add({ ...c, tolerance: latencyTolerance(c.tolerance) });
  }

  analyse(options: {
    alpha: number;
    candidate: boolean;
    suite: ResolvedTolerance['latency'];
  }): LatencyAnalysis {
    return this.tally.analyse({ ...options, suite: latencyTolerance(options.suite) });
  }
}
