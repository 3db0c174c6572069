import { failsRun, counts } from '../core/words.js';
import { ADAPTIVE_SAMPLING } from '../stats/adaptive.js';
import {
  comparePassRates,
  DEFAULT_ALPHA,
  nextSampleDecision,
  type Samples,
  suiteVerdict,
  sumSamples,
  wilsonInterval,
} from '../stats/index.js';
import type { BaselineCase } from '../stored/baseline/types.js';
import type { PassRate } from '../stored/report/types.js';
import { type Drift, severityOf } from '../record/drift-kinds.js';
import { formatP } from '../stats/format-p.js';

/** One case's samples of a rate (its passes, or its loops finished within max_steps), with its baseline's. */
export interface CaseSamples {
  case: string;
  samples: Samples;
  /** The baseline's samples of this case (a single-sample baseline counts as one), null without one. */
  baseline: Samples | null;
  /** Sampled with `repeat: auto`: its drop is decided by the sequential test. */
  adaptive: boolean;
}

/**
 * A rate of a repeated case's samples that is tested against its baseline's: the drift kind
 * a significant drop is, and how messages name the rate and the cases it is over.
 */
export interface RateFamily {
  kind: 'pass_rate_dropped' | 'within_max_steps_dropped';
  /** The rate in a message: `pass rate 100% (20/20) → 60% (12/20)`. */
  label: string;
  /** The suite's cases in its finding: `over 20 repeated cases`. */
  cases: string;
}

/** Samples whose checks all passed, of the samples sent. */
export const PASS_RATE: RateFamily = {
  kind: 'pass_rate_dropped',
  label: 'pass rate',
  cases: 'repeated cases',
};

/**
 * A tool loop's samples that ended with a text answer within max_steps, of the samples sent:
 * one that ended in max_steps_reached, tool_result_missing or another error did not.
 */
export const WITHIN_MAX_STEPS: RateFamily = {
  kind: 'within_max_steps_dropped',
  label: 'rate of finishing within max_steps',
  cases: 'repeated tool loops',
};

/** A repeated case's rate and its test against the baseline's samples. */
export interface RateStats extends PassRate {
  case: string;
  samples: Samples;
  /** The test against the baseline found a significant drop (Holm-adjusted in a suite). */
  dropped: boolean;
}

/** A repeated case's pass rate, and whether it fails the run. */
export interface CaseStats extends RateStats {
  /** The case fails the run: see `failsExpectations` and `dropped`. */
  failing: boolean;
}

/** A rate's verdicts over a suite's cases. */
export interface RateAnalysis<S extends RateStats = RateStats> {
  stats: S[];
  /** Case id → its drift of the rate's kind (`pass_rate_dropped`, `within_max_steps_dropped`). */
  caseDrift: Map<string, Drift>;
  /** Suite-level findings: the rate's kind (a stratified test over every repeated case) when significant; for pass rates, `weak_baseline` when baselines are too small to test. */
  suiteDrift: Drift[];
}

export type PassRateAnalysis = RateAnalysis<CaseStats>;

/**
 * A baseline with fewer samples than this cannot support "no drop": with 1 sample, even
 * 100 % → 30 % over 10 samples has p = 0.20. It is the first look of `repeat: auto`, the
 * smallest baseline bench:verdicts measures the tests' power with.
 */
export const WEAK_BASELINE_SAMPLES = ADAPTIVE_SAMPLING.min;

/** Whether a case's rate is tested: it was sent, and one side has more than one sample. */
export function entersPassRateTest(c: Pick<CaseSamples, 'samples' | 'baseline'>): boolean {
  return c.samples.total > 0 && (c.samples.total > 1 || (c.baseline?.total ?? 0) > 1);
}

/**
 * Turns a suite's repeated samples of one rate into verdicts with stated confidence: a Wilson
 * interval per case, an exact one-sided test against the baseline's samples, and a
 * suite-level stratified test with Holm-adjusted per-case flags (`suiteVerdict`). Pass rates
 * and a tool loop's rate of finishing within max_steps are both judged here. Cases sampled
 * once on both sides are left to the per-sample rules. Pure.
 */
export function analyseRate(
  family: RateFamily,
  cases: readonly CaseSamples[],
  alpha = DEFAULT_ALPHA,
): RateAnalysis {
  const repeated = cases.filter(entersPassRateTest);
  const compared: { stat: RateStats; base: Samples; current: Samples; adaptive: boolean }[] = [];
  const stats: RateStats[] = repeated.map(({ case: id, samples: current, baseline: base, adaptive }) => {
    const { rate, low, high } = wilsonInterval(current.pass, current.total);
    const shown = { case: id, samples: current, rate, low, high };
    if (!base)
      return { ...shown, baseline: null, p: null, verdict: 'new', weak_baseline: false, dropped: false };
    const c = comparePassRates(base, current, { alpha });
    // An adaptive case was sampled with early stopping: its verdict is the sequential
    // test's (calibrated for that); the exact test's p is shown for reference.
    const dropped = adaptive
      ? nextSampleDecision(base, current, {
          maxSamples: ADAPTIVE_SAMPLING.cap,
          minSamples: ADAPTIVE_SAMPLING.min,
          alpha,
        }) === 'drift'
      : c.dropped;
    const stat: RateStats = {
      ...shown,
      baseline: base,
      p: round(c.p),
      verdict: dropped ? 'dropped' : c.flaky ? 'flaky' : 'stable',
      weak_baseline: base.total < WEAK_BASELINE_SAMPLES,
      dropped,
    };
    compared.push({ stat, base, current, adaptive });
    return stat;
  });

  const suiteDrift: Drift[] = [];
  if (compared.length > 1) {
    // Many cases, many tests: per-case flags need the suite-level test to reject and a Holm-adjusted p ≤ alpha.
    const verdict = suiteVerdict(
      compared.map((c) => ({ baseline: c.base, current: c.current })),
      { alpha },
    );
    compared.forEach(({ stat, adaptive }, i) => {
      // An adaptive case keeps its sequential verdict: that test already controls its error rate.
      if (adaptive) return;
      const flagged = verdict.perCase[i]!.dropped;
      stat.dropped = flagged;
      if (stat.verdict === 'dropped' && !flagged)
        stat.verdict = stat.baseline!.pass < stat.baseline!.total ? 'flaky' : 'stable';
      if (flagged) stat.verdict = 'dropped';
    });
    if (verdict.dropped) {
      const base = sumSamples(compared.map((c) => c.base));
      const current = sumSamples(compared.map((c) => c.current));
      suiteDrift.push({
        kind: family.kind,
        severity: severityOf(family.kind),
        baseline: base,
        current,
        message: `suite ${family.label} ${counts(base)} → ${counts(current)} over ${compared.length} ${family.cases}, p = ${formatP(verdict.p)} (${verdict.method}, alpha ${alpha})`,
      });
    }
  }
  const caseDrift = new Map<string, Drift>();
  for (const stat of stats) {
    if (stat.verdict !== 'dropped' || !stat.baseline) continue;
    caseDrift.set(stat.case, {
      kind: family.kind,
      severity: severityOf(family.kind),
      baseline: stat.baseline,
      current: stat.samples,
      message: `${family.label} ${counts(stat.baseline)} → ${counts(stat.samples)}, p = ${formatP(stat.p ?? 1)} (alpha ${alpha})`,
    });
  }
  return { stats, caseDrift, suiteDrift };
}

/**
 * The suite's pass rates (analyseRate), each case's verdict by them — it fails when it does
 * not meet its expectations or dropped (`failsRun`) — and, once per suite, whether its
 * baselines were too small to show a drop (`weak_baseline`). Pure.
 */
export function analysePassRates(cases: readonly CaseSamples[], alpha = DEFAULT_ALPHA): PassRateAnalysis {
  const rates = analyseRate(PASS_RATE, cases, alpha);
  const stats = rates.stats.map((s): CaseStats => ({ ...s, failing: failsRun(s.samples, s.dropped) }));
  const weak = weakBaselineDrift(stats);
  return {
    stats,
    caseDrift: rates.caseDrift,
    suiteDrift: weak ? [...rates.suiteDrift, weak] : rates.suiteDrift,
  };
}

/**
 * Says once per suite that its repeated cases were compared with baselines too small to
 * show a drop, so "no drop" there is not read as "nothing changed". Info: a weak baseline
 * is a fact about the evidence, not a failure (a case that fails its expectations fails anyway).
 */
function weakBaselineDrift(stats: readonly RateStats[]): Drift | null {
  const weak = stats.filter((s) => s.weak_baseline);
  if (weak.length === 0) return null;
  const compared = stats.filter((s) => s.baseline !== null).length;
  const sizes = [...new Set(weak.map((s) => s.baseline!.total))].sort((a, b) => a - b);
  const plural = sizes.length > 1 || sizes[0] !== 1 ? 's' : '';
  return {
    kind: 'weak_baseline',
    severity: severityOf('weak_baseline'),
    baseline: { cases: weak.length, samples: sizes },
    current: null,
    message: `weak baseline: ${weak.length} of ${compared} repeated case${compared === 1 ? '' : 's'} ${weak.length === 1 ? 'has' : 'have'} ${sizes.join(' or ')} baseline sample${plural} (< ${WEAK_BASELINE_SAMPLES}), too few to show a drop, so "stable" is no evidence nothing changed; --update-baselines --repeat ${WEAK_BASELINE_SAMPLES} records more`,
  };
}

/** The baseline's samples of a case; a single-sample baseline still counts as one sample. */
export function baselineSamples(entry: Pick<BaselineCase, 'samples' | 'status'> | undefined): Samples | null {
  if (!entry) return null;
  if (entry.samples) return entry.samples;
  return { pass: entry.status === 'pass' ? 1 : 0, total: 1 };
}

function round(p: number): number {
  return Number(p.toPrecision(4));
}
