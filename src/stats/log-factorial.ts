/**
 * Log-space factorials and binomial coefficients, so probabilities of tables with
 * hundreds or thousands of samples never overflow (1000! is far beyond a double).
 */

// Exact running sums of logs are cheap and precise for the sizes driftcheck sees; past
// this size Stirling's series is accurate to double precision and costs no memory.
const TABLE_LIMIT = 20_000;
const table: number[] = [0];

function stirlingLogFactorial(n: number): number {
  const x = n + 1;
  const inv = 1 / x;
  const inv2 = inv * inv;
  const series = inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 / 1680)));
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + series;
}

/** ln(n!) for a non-negative integer n. */
export function logFactorial(n: number): number {
  if (n > TABLE_LIMIT) return stirlingLogFactorial(n);
  for (let i = table.length; i <= n; i++) table.push(table[i - 1]! + Math.log(i));
  return table[n]!;
}

/** ln(n choose k); -Infinity when k is outside 0..n (the coefficient is 0). */
export function logChoose(n: number, k: number): number {
  if (k < 0 || k > n) return Number.NEGATIVE_INFINITY;
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}
