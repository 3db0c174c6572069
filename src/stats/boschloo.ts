import { binomialPmf } from './distributions.js';
import { fisherOneSided } from './fisher.js';
import { NUISANCE_GRID } from './nuisance.js';
import { assertSamples, type Samples } from './samples.js';

/** Beyond this many possible tables the exact test is too slow and Fisher's test is near its level anyway. */
const MAX_TABLES = 201 * 201;
const CACHE_LIMIT = 64;
const cache = new Map<string, Float64Array>();

/**
 * Boschloo p-values of every table with these sample sizes: Fisher's p orders the
 * tables, and each table's p-value is the largest chance, over the shared pass rate, of
 * a table at least as extreme. Fisher's p is itself a valid bound, so this is never
 * larger than it — the test is uniformly more powerful than Fisher's.
 */
function boschlooTable(nb: number, nc: number): Float64Array {
  const key = `${nb}:${nc}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const width = nc + 1;
  const fisher = new Float64Array((nb + 1) * width);
  for (let xb = 0; xb <= nb; xb++) {
    for (let xc = 0; xc <= nc; xc++) {
      fisher[xb * width + xc] = fisherOneSided({ pass: xb, total: nb }, { pass: xc, total: nc });
    }
  }
  const order = Array.from(fisher.keys()).sort((a, b) => fisher[a]! - fisher[b]!);
  // Tables whose Fisher p ties (up to rounding) are equally extreme and share one p-value.
  const groupEnd = new Int32Array(order.length);
  for (let i = order.length - 1; i >= 0; i--) {
    const next = order[i + 1];
    const tied = next !== undefined && fisher[next]! <= fisher[order[i]!]! * (1 + 1e-9) + 1e-15;
    groupEnd[i] = tied ? groupEnd[i + 1]! : i;
  }
  const result = new Float64Array(fisher.length);
  const cumulative = new Float64Array(order.length);
  for (const rate of NUISANCE_GRID) {
    const pb = binomialPmf(nb, rate);
    const pc = binomialPmf(nc, rate);
    let sum = 0;
    for (let i = 0; i < order.length; i++) {
      const t = order[i]!;
      sum += pb[Math.floor(t / width)]! * pc[t % width]!;
      cumulative[i] = sum;
    }
    for (let i = 0; i < order.length; i++) {
      const t = order[i]!;
      const size = cumulative[groupEnd[i]!]!;
      if (size > result[t]!) result[t] = size;
    }
  }
  for (let t = 0; t < result.length; t++) result[t] = Math.min(result[t]!, fisher[t]!);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, result);
  return result;
}

/** Which exact test produced a p-value: Boschloo's when the tables are few enough, else Fisher's. */
export type ExactTest = 'boschloo' | 'fisher';

/**
 * One-sided exact unconditional (Boschloo) test that the current pass rate is below the
 * baseline's — the per-case test for fixed repeat counts. Falls back to Fisher's
 * conditional test for very large sample counts.
 */
export function boschlooOneSided(baseline: Samples, current: Samples): { p: number; method: ExactTest } {
  assertSamples(baseline, 'baseline');
  assertSamples(current, 'current');
  if (baseline.total === 0 || current.total === 0) return { p: 1, method: 'boschloo' };
  // Every current sample passing, or no baseline sample passing, shows no drop: every table
  // of these sizes is at least as extreme (p = 1). Said without building the sizes' table,
  // which rates with varying totals (a suite's valid calls) would otherwise build for each.
  if (current.pass === current.total || baseline.pass === 0) return { p: 1, method: 'boschloo' };
  if ((baseline.total + 1) * (current.total + 1) > MAX_TABLES) {
    return { p: fisherOneSided(baseline, current), method: 'fisher' };
  }
  const table = boschlooTable(baseline.total, current.total);
  return { p: table[baseline.pass * (current.total + 1) + current.pass]!, method: 'boschloo' };
}
