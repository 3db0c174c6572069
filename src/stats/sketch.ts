import { nearestRank } from './nearest-rank.js';

/**
 * Timings (a case's latencies, its times to first token) in a few numbers a baseline file
 * can hold and a rank test can use: nearest-rank p50 and p95 over all `n` values, and
 * `sample`, the values themselves sorted when there are at most LATENCY_SAMPLE_CAP of them,
 * else that many evenly spaced quantiles.
 */
export interface LatencySketch {
  n: number;
  p50: number;
  p95: number;
  sample: number[];
}

/** A LatencySketch's JSON Schema, for every file that keeps one (a baseline, a case entry's `streaming`). */
export const LATENCY_SKETCH_SCHEMA = {
  type: 'object',
  required: ['n', 'p50', 'p95', 'sample'],
  properties: {
    n: { type: 'integer', minimum: 1 },
    p50: { type: 'number', minimum: 0 },
    p95: { type: 'number', minimum: 0 },
    sample: { type: 'array', minItems: 1, items: { type: 'number', minimum: 0 } },
  },
} as const;

/** At most this many values go into a sketch: a baseline file stays short and reviewable. */
export const LATENCY_SAMPLE_CAP = 20;

/**
 * Timings as a baseline keeps them: p50 and p95 over all of them, and the sorted values
 * themselves, or LATENCY_SAMPLE_CAP evenly spaced nearest-rank quantiles of many (which a
 * rank test can still use as a sample of that size). Null without any.
 */
export function latencySketch(values: readonly number[]): LatencySketch | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const sample =
    n <= LATENCY_SAMPLE_CAP
      ? sorted
      : Array.from(
          { length: LATENCY_SAMPLE_CAP },
          (_, i) => sorted[Math.min(n - 1, Math.ceil(((i + 0.5) / LATENCY_SAMPLE_CAP) * n) - 1)]!,
        );
  return { n, p50: nearestRank(sorted, 0.5)!, p95: nearestRank(sorted, 0.95)!, sample };
}
