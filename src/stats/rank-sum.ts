import { binomialPmf } from './distributions.js';
import { normalUpperTail } from './normal.js';

/**
 * Pooled sizes up to which the rank-sum distribution is counted exactly: C(40, 20) ≈ 1.4e11
 * subsets stay exact in a double, and the count costs about N·n·N² steps (a few million).
 */
const EXACT_LIMIT = 40;

export interface RankSumTest {
  /** Mann–Whitney U of `y`: the pairs (x, y) with y > x, a tie counting one half. */
  u: number;
  /** One-sided p-value for "y tends to be larger than x". */
  greater: number;
  /** One-sided p-value for "y tends to be smaller than x". */
  less: number;
  /** exact: the permutation distribution of the rank sum (ties kept); normal: with tie and continuity corrections. */
  method: 'exact' | 'normal';
}

/**
 * Mann–Whitney U (Wilcoxon rank-sum) test of two independent samples: whether the values of
 * `y` tend to lie above or below those of `x`, whatever their distributions' shape. Latencies
 * are skewed and heavy-tailed, so a test on ranks, not means, is the one whose false alarms
 * stay at its level. Both samples must be non-empty.
 */
export function rankSumTest(x: readonly number[], y: readonly number[]): RankSumTest {
  if (x.length === 0 || y.length === 0) throw new RangeError('rankSumTest needs two non-empty samples');
  const { ranks, tieTerm } = doubledMidranks([...x, ...y]);
  const m = x.length;
  const n = y.length;
  const big = m + n;
  // Doubled midranks are integers, so the exact count can index by rank sum.
  let w2 = 0;
  for (let i = m; i < big; i++) w2 += ranks[i]!;
  const u = w2 / 2 - (n * (n + 1)) / 2;
  if (big <= EXACT_LIMIT) {
    const { greater, less } = exactTails(ranks, n, w2);
    return { u, greater, less, method: 'exact' };
  }
  const mean = (m * n) / 2;
  const variance = ((m * n) / 12) * (big + 1 - tieTerm / (big * (big - 1)));
  if (variance <= 0) return { u, greater: 1, less: 1, method: 'normal' };
  const sd = Math.sqrt(variance);
  return {
    u,
    greater: Math.min(1, normalUpperTail((u - mean - 0.5) / sd)),
    less: Math.min(1, normalUpperTail((mean - u - 0.5) / sd)),
    method: 'normal',
  };
}

/** Twice the midrank of each value (ties share their average rank), and Σ(t³ − t) over tie groups. */
function doubledMidranks(values: readonly number[]): { ranks: number[]; tieTerm: number } {
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v);
  const ranks = new Array<number>(values.length);
  let tieTerm = 0;
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.v === order[start]!.v) end++;
    // Positions start+1 … end+1 share rank (start + end + 2) / 2; doubled, an integer.
    for (let k = start; k <= end; k++) ranks[order[k]!.i] = start + end + 2;
    const t = end - start + 1;
    tieTerm += t * t * t - t;
    start = end + 1;
  }
  return { ranks, tieTerm };
}

/** P(sum ≥ w2) and P(sum ≤ w2) of `n` doubled ranks drawn without replacement from `ranks`. */
function exactTails(ranks: readonly number[], n: number, w2: number): { greater: number; less: number } {
  const total = ranks.reduce((a, b) => a + b, 0);
  // ways[k][s]: subsets of k ranks seen so far whose doubled sum is s.
  const ways = Array.from({ length: n + 1 }, () => new Float64Array(total + 1));
  ways[0]![0] = 1;
  let reach = 0;
  for (const r of ranks) {
    reach += r;
    for (let k = n; k >= 1; k--) {
      const into = ways[k]!;
      const from = ways[k - 1]!;
      for (let s = reach; s >= r; s--) into[s]! += from[s - r]!;
    }
  }
  const counts = ways[n]!;
  let all = 0;
  let atLeast = 0;
  let atMost = 0;
  for (let s = 0; s <= total; s++) {
    const c = counts[s]!;
    all += c;
    if (s >= w2) atLeast += c;
    if (s <= w2) atMost += c;
  }
  return { greater: atLeast / all, less: atMost / all };
}

/**
 * One-sided sign test: the chance of at least `up` of `n` fair coins (pairs without a tie)
 * landing one way — for "most cases got slower" when each case alone says little.
 */
export function signTestUpper(up: number, n: number): number {
  if (n === 0) return 1;
  const pmf = binomialPmf(n, 0.5);
  let p = 0;
  for (let k = Math.max(0, up); k <= n; k++) p += pmf[k]!;
  return Math.min(1, p);
}
