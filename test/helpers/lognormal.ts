/** A standard normal draw (Box–Muller) from a seeded uniform source (src/stats/random.ts createRng). */
function gauss(random: () => number): number {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/**
 * `n` latencies (whole ms) of a log-normal distribution with this median and spread — the
 * skewed, long-tailed shape of service latencies — from a seeded source.
 */
export function lognormalLatencies(random: () => number, n: number, median: number, sigma: number): number[] {
  return Array.from({ length: n }, () => Math.round(median * Math.exp(sigma * gauss(random))));
}
