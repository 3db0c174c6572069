import { binomialPmf } from './distributions.js';
import { fisherOneSided } from './fisher.js';
import { NUISANCE_GRID } from './nuisance.js';

/**
 * A group-sequential test of one case against a fixed baseline of `baselineTotal`
 * samples: at each look (a current sample count) the case is declared drifted when
 * Fisher's one-sided p is at most that look's level, declared stable when the futility
 * rule says it is clearly fine, and sampled further otherwise.
 */
export interface SequentialDesign {
  baselineTotal: number;
  looks: number[];
  /** Nominal Fisher-p level of each look, calibrated so the whole procedure keeps `alpha`. */
  levels: number[];
  alpha: number;
  /** The largest false-alarm rate over the shared pass rate (≤ alpha by construction). */
  size: number;
}

/** Fisher p above which an intermediate look stops a case as clearly not drifted. */
const FUTILITY_P = 0.5;
/** Levels grow with the cube of the information fraction: little is spent on early looks. */
const SPENDING_POWER = 3;
const BISECTION_STEPS = 20;

/** Futility rule at look `k` (0-based) of `lookCount`; never at the last look, where the test decides. */
export function isFutile(
  k: number,
  fisherP: number,
  xb: number,
  nb: number,
  xc: number,
  nc: number,
): boolean {
  // The first look stops only cases that cannot drop (the baseline never passed) or that
  // have never failed on either side; anything looser costs a few percent of power on
  // real drops, because a 70% case still passes 10 of 10 samples 3% of the time.
  if (k === 0) return xb === 0 || (xb === nb && xc === nc);
  return fisherP > FUTILITY_P;
}

interface LookTables {
  fisher: Float64Array[][];
  futile: Uint8Array[][];
}

function lookTables(nb: number, looks: number[]): LookTables {
  const fisher: Float64Array[][] = [];
  const futile: Uint8Array[][] = [];
  looks.forEach((n, k) => {
    const f: Float64Array[] = [];
    const u: Uint8Array[] = [];
    for (let xb = 0; xb <= nb; xb++) {
      const row = new Float64Array(n + 1);
      const stop = new Uint8Array(n + 1);
      for (let xc = 0; xc <= n; xc++) {
        row[xc] = fisherOneSided({ pass: xb, total: nb }, { pass: xc, total: n });
        stop[xc] = k < looks.length - 1 && isFutile(k, row[xc]!, xb, nb, xc, n) ? 1 : 0;
      }
      f.push(row);
      u.push(stop);
    }
    fisher.push(f);
    futile.push(u);
  });
  return { fisher, futile };
}

/**
 * Exact false-alarm rate of the procedure when both sides pass with `rate`: sum over
 * baseline outcomes of the chance that the current path crosses a drift boundary before
 * being stopped, by dynamic programming over the looks.
 */
function falseAlarmRate(
  nb: number,
  looks: number[],
  levels: number[],
  tables: LookTables,
  rate: number,
): number {
  const baselinePmf = binomialPmf(nb, rate);
  const stepPmfs = new Map<number, Float64Array>();
  let total = 0;
  for (let xb = 0; xb <= nb; xb++) {
    const weight = baselinePmf[xb]!;
    if (weight < 1e-15) continue;
    let dist = new Float64Array([1]);
    let previous = 0;
    let rejected = 0;
    for (let k = 0; k < looks.length; k++) {
      const n = looks[k]!;
      const step = n - previous;
      let stepPmf = stepPmfs.get(step);
      if (!stepPmf) stepPmfs.set(step, (stepPmf = binomialPmf(step, rate)));
      const next = new Float64Array(n + 1);
      for (let x = 0; x < dist.length; x++) {
        const d = dist[x]!;
        if (d === 0) continue;
        for (let j = 0; j <= step; j++) next[x + j]! += d * stepPmf[j]!;
      }
      const fisher = tables.fisher[k]![xb]!;
      const futile = tables.futile[k]![xb]!;
      for (let x = 0; x <= n; x++) {
        if (fisher[x]! <= levels[k]!) {
          rejected += next[x]!;
          next[x] = 0;
        } else if (futile[x]) next[x] = 0;
      }
      dist = next;
      previous = n;
    }
    total += weight * rejected;
  }
  return total;
}

function worstCaseSize(nb: number, looks: number[], levels: number[], tables: LookTables): number {
  let worst = 0;
  // Every fourth grid point: the DP is costlier than a single table, and the size curve
  // of ≤ 40 + 40 samples moves on a scale of several hundredths.
  for (let i = 3; i < NUISANCE_GRID.length; i += 4) {
    worst = Math.max(worst, falseAlarmRate(nb, looks, levels, tables, NUISANCE_GRID[i]!));
  }
  return worst;
}

const cache = new Map<string, SequentialDesign>();

/**
 * Calibrates the looks' levels for a baseline of `nb` samples: the largest scale whose
 * worst-case false-alarm rate, over every shared pass rate, is at most `alpha`. The
 * futility stops are part of the calculation (binding): a runner must stop on them.
 */
export function sequentialDesign(nb: number, looks: number[], alpha: number): SequentialDesign {
  const key = `${nb}|${looks.join(',')}|${alpha}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const last = looks[looks.length - 1]!;
  const shape = looks.map((n) => (n / last) ** SPENDING_POWER);
  const tables = lookTables(nb, looks);
  let low = 0;
  let high = 1;
  let size = 0;
  for (let i = 0; i < BISECTION_STEPS; i++) {
    const scale = (low + high) / 2;
    const s = worstCaseSize(
      nb,
      looks,
      shape.map((w) => w * scale),
      tables,
    );
    if (s <= alpha) [low, size] = [scale, s];
    else high = scale;
  }
  const design = { baselineTotal: nb, looks, levels: shape.map((w) => w * low), alpha, size };
  cache.set(key, design);
  return design;
}
