/**
 * Average run length (ARL) of a one-sided binomial CUSUM, by the Markov-chain method of
 * Brook & Evans (1972): the statistic's range [0, h) is cut into `cells` states, each
 * night's log-likelihood-ratio step moves it between them, and the expected number of
 * nights to cross h solves one linear system. Used to pick the threshold whose false-alarm
 * rate is 1 per `arl` case-nights when nothing drifted.
 */
import { logChoose } from './log-factorial.js';

/** The night's log-likelihood ratio of p1 against p0 for x passes out of n. */
export function nightLlr(x: number, n: number, p0: number, p1: number): number {
  return x * Math.log(p1 / p0) + (n - x) * Math.log((1 - p1) / (1 - p0));
}

function binomialPmf(n: number, p: number): number[] {
  const out: number[] = [];
  for (let x = 0; x <= n; x++)
    out.push(Math.exp(logChoose(n, x) + x * Math.log(p) + (n - x) * Math.log1p(-p)));
  return out;
}

/** Expected nights until the CUSUM (started at 0) exceeds h, when the true pass rate is `pTrue`. */
export function cusumArl(p0: number, p1: number, n: number, h: number, pTrue = p0, cells = 120): number {
  const pmf = binomialPmf(n, pTrue);
  const width = h / cells;
  const steps = pmf.map((_, x) => nightLlr(x, n, p0, p1) / width);
  // Row i of (I − Q | 1), Q the transitions between non-absorbing states.
  const rows: Float64Array[] = [];
  for (let i = 0; i < cells; i++) {
    const row = new Float64Array(cells + 1);
    row[i] = 1;
    row[cells] = 1;
    for (let x = 0; x <= n; x++) {
      const j = Math.max(0, Math.round(i + steps[x]!));
      if (j < cells) row[j]! -= pmf[x]!;
    }
    rows.push(row);
  }
  return solveFirst(rows, cells);
}

/** Gaussian elimination with partial pivoting; returns the solution's first component. */
function solveFirst(rows: Float64Array[], m: number): number {
  for (let c = 0; c < m; c++) {
    let pivot = c;
    for (let r = c + 1; r < m; r++) if (Math.abs(rows[r]![c]!) > Math.abs(rows[pivot]![c]!)) pivot = r;
    [rows[c], rows[pivot]] = [rows[pivot]!, rows[c]!];
    const top = rows[c]!;
    for (let r = c + 1; r < m; r++) {
      const row = rows[r]!;
      const f = row[c]! / top[c]!;
      if (f === 0) continue;
      for (let k = c; k <= m; k++) row[k]! -= f * top[k]!;
    }
  }
  const solution = new Float64Array(m);
  for (let r = m - 1; r >= 0; r--) {
    const row = rows[r]!;
    let s = row[m]!;
    for (let k = r + 1; k < m; k++) s -= row[k]! * solution[k]!;
    solution[r] = s / row[r]!;
  }
  return solution[0]!;
}

const thresholds = new Map<string, number>();

/**
 * The smallest threshold h whose in-control ARL reaches `arl` nights (bisection on h).
 * Memoised: callers round p0 and p1 to a grid, so a suite of any size needs few solves.
 */
export function cusumThreshold(p0: number, p1: number, n: number, arl: number): number {
  const key = `${p0}/${p1}/${n}/${arl}`;
  const known = thresholds.get(key);
  if (known !== undefined) return known;
  let [low, high] = [0.05, 40];
  for (let i = 0; i < 28; i++) {
    const mid = (low + high) / 2;
    if (cusumArl(p0, p1, n, mid) < arl) low = mid;
    else high = mid;
  }
  thresholds.set(key, high);
  return high;
}
