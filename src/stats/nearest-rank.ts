/** The 0-based index of the nearest-rank `q` percentile among `n` sorted values. */
const rankIndex = (n: number, q: number): number => Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1));

/**
 * Nearest-rank percentile: an observed value, never an interpolated one (a latency that
 * happened). Null for no values. Latency summaries of a case, of a history night and of
 * the trend page all use it.
 */
export function nearestRank(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[rankIndex(sorted.length, q)]!;
}

/** The same percentile of values given as counts (value → how many times it was seen), e.g. a tool loop's steps. */
export function nearestRankOfCounts(counts: ReadonlyMap<number, number>, q: number): number | null {
  let n = 0;
  for (const count of counts.values()) n += count;
  if (n === 0) return null;
  const rank = rankIndex(n, q);
  let seen = 0;
  for (const value of [...counts.keys()].sort((a, b) => a - b)) {
    seen += counts.get(value)!;
    if (seen > rank) return value;
  }
  return null;
}
