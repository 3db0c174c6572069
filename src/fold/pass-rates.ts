import { ADAPTIVE_SAMPLING } from '../stats/adaptive.js';
import {
  comparePassRates,
  DEFAULT_ALPHA,
  nextSampleDecision,
  suiteVerdict,
  wilsonInterval,
} from '../stats/index.js';
import type { Baseline, Drift, PassRate } from '../types.js';

/** One case's samples as the pass-rate analysis sees them. */
export interface CaseSamples {
  case: string;
  samples: { pass: number; total: number };
  /** Sampled with `repeat: auto`: its verdict is the sequential test's. */
  adaptive: boolean;
}

/** A repeated case's pass rate, and whether it fails the run. */
export interface CaseStats extends PassRate {
  case: string;
  samples: { pass: number; total: number };
  /** A repeated case fails the run when it dropped, or (without baseline) most samples failed. */
  failing: boolean;
}

export interface PassRateAnalysis {
  stats: CaseStats[];
  /** Case id → its `pass_rate_dropped` drift. */
  caseDrift: Map<string, Drift>;
  /** Suite-wide `pass_rate_dropped` (a stratified test over every repeated case), when significant. */
  suiteDrift: Drift | null;
}

const percent = (rate: number) => `${Math.round(rate * 100)}%`;
const counts = (s: { pass: number; total: number }) =>
  `${percent(s.total ? s.pass / s.total : 0)} (${s.pass}/${s.total})`;

/**
 * Turns a suite's repeated samples into verdicts with stated confidence: a Wilson interval
 * per case, an exact one-sided test against the baseline's samples, and a suite-level
 * stratified test with Holm-adjusted per-case flags. Cases sampled once are left to the
 * per-sample rules. Pure.
 */
export function analysePassRates(
  cases: readonly CaseSamples[],
  baseline: Baseline | null,
  alpha = DEFAULT_ALPHA,
): PassRateAnalysis {
  const adaptive = new Set(cases.filter((c) => c.adaptive).map((c) => c.case));
  const repeated: [string, { pass: number; total: number }][] = [];
  for (const c of cases) {
    if (c.samples.total === 0) continue;
    if (c.samples.total > 1 || (baseline?.cases[c.case]?.samples?.total ?? 0) > 1)
      repeated.push([c.case, c.samples]);
  }
  const compared: {
    id: string;
    base: { pass: number; total: number };
    current: { pass: number; total: number };
  }[] = [];
  const stats: CaseStats[] = repeated.map(([id, current]) => {
    const { rate, low, high } = wilsonInterval(current.pass, current.total);
    const shown = { case: id, samples: current, rate, low, high };
    const base = baselineSamples(baseline, id);
    if (!base)
      return { ...shown, baseline: null, p: null, verdict: 'new', failing: current.pass * 2 < current.total };
    compared.push({ id, base, current });
    const c = comparePassRates(base, current, { alpha });
    // An adaptive case was sampled with early stopping: its verdict is the sequential
    // test's (calibrated for that); the exact test's p is shown for reference.
    const dropped = adaptive.has(id)
      ? nextSampleDecision(base, current, {
          maxSamples: ADAPTIVE_SAMPLING.cap,
          minSamples: ADAPTIVE_SAMPLING.min,
          alpha,
        }) === 'drift'
      : c.dropped;
    const verdict = dropped ? 'dropped' : c.flaky ? 'flaky' : 'stable';
    return { ...shown, baseline: base, p: round(c.p), verdict, failing: dropped };
  });

  const caseDrift = new Map<string, Drift>();
  let suiteDrift: Drift | null = null;
  if (compared.length > 1) {
    // Many cases, many tests: per-case flags need the suite-level test to reject and a Holm-adjusted p ≤ alpha.
    const verdict = suiteVerdict(
      compared.map((c) => ({ baseline: c.base, current: c.current })),
      { alpha },
    );
    const statOf = new Map(stats.map((s) => [s.case, s]));
    compared.forEach((c, i) => {
      // An adaptive case keeps its sequential verdict: that test already controls its error rate.
      if (adaptive.has(c.id)) return;
      const stat = statOf.get(c.id)!;
      const flagged = verdict.perCase[i]!.dropped;
      stat.failing = flagged;
      if (stat.verdict === 'dropped' && !flagged)
        stat.verdict = stat.baseline!.pass < stat.baseline!.total ? 'flaky' : 'stable';
      if (flagged) stat.verdict = 'dropped';
    });
    if (verdict.dropped) {
      const base = sum(compared.map((c) => c.base));
      const current = sum(compared.map((c) => c.current));
      suiteDrift = {
        kind: 'pass_rate_dropped',
        severity: 'fail',
        baseline: base,
        current,
        message: `suite pass rate ${counts(base)} → ${counts(current)} over ${compared.length} repeated cases, p = ${format(verdict.p)} (${verdict.method}, alpha ${alpha})`,
      };
    }
  }
  for (const stat of stats) {
    if (stat.verdict !== 'dropped' || !stat.baseline) continue;
    caseDrift.set(stat.case, {
      kind: 'pass_rate_dropped',
      severity: 'fail',
      baseline: stat.baseline,
      current: stat.samples,
      message: `pass rate ${counts(stat.baseline)} → ${counts(stat.samples)}, p = ${format(stat.p ?? 1)} (alpha ${alpha})`,
    });
  }
  return { stats, caseDrift, suiteDrift };
}

function baselineSamples(baseline: Baseline | null, id: string): { pass: number; total: number } | null {
  const entry = baseline?.cases[id];
  if (!entry) return null;
  if (entry.samples) return entry.samples;
  // A single-sample baseline still counts as one sample.
  return { pass: entry.status === 'pass' ? 1 : 0, total: 1 };
}

function sum(list: { pass: number; total: number }[]): { pass: number; total: number } {
  return list.reduce((a, b) => ({ pass: a.pass + b.pass, total: a.total + b.total }), { pass: 0, total: 0 });
}

function round(p: number): number {
  return Number(p.toPrecision(4));
}

function format(p: number): string {
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}
