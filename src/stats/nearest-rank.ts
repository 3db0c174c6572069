/**
 * Nearest-rank percentile: an observed value, never an interpolated one (a latency that
 * happened). Null for no values. Latency summaries of a case, of a history night and of
 * the trend page all use it.
 */
export function nearestRank(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
