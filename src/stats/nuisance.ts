/**
 * Under "no drift" both sides share one unknown pass rate. Exact unconditional tests
 * guard against the worst such rate; this grid is where they look for it. Step 1/400 is
 * much finer than how fast these sums of binomial terms move at the sizes used here
 * (≤ a few hundred samples), and the benchmark measures the resulting error rates.
 */
export const NUISANCE_GRID: readonly number[] = Array.from({ length: 399 }, (_, i) => (i + 1) / 400);
