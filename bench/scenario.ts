/**
 * Monte-Carlo evaluation of drift verdicts against a known truth: draw a baseline and a
 * current run from samplers whose true pass rates are known, apply a repeats policy and
 * the verdict, and count how often drift is flagged. Pure and synchronous; to evaluate
 * runs through the simulator, collect outcomes first and hand in samplers that replay them.
 */
import {
  comparePassRates,
  fisherOneSided,
  nextLook,
  nextSampleDecision,
  type Samples,
  suiteVerdict,
} from '../src/stats/index.js';

/** How many current samples each case gets, and which test decides. */
export type RepeatPolicy =
  | { kind: 'fixed'; repeats: number; test?: 'boschloo' | 'fisher' }
  | { kind: 'adaptive'; maxSamples: number; minSamples?: number };

/** One case of a scenario: where its baseline samples and its current samples come from. */
export interface CaseSampler {
  baseline: () => boolean;
  current: () => boolean;
}

export interface ScenarioOptions {
  trials: number;
  /** Baseline samples per case (default: the fixed repeat count, or the adaptive cap). */
  baselineSamples?: number;
  alpha?: number;
}

export interface ScenarioResult {
  trials: number;
  /** Share of trials that flagged drift: false alarms when nothing drifted, detections otherwise. */
  flaggedRate: number;
  /** Mean current samples per case. */
  meanSamples: number;
}

function draw(sample: () => boolean, n: number, into: Samples = { pass: 0, total: 0 }): Samples {
  for (let i = 0; i < n; i++) {
    if (sample()) into.pass++;
    into.total++;
  }
  return into;
}

function policyLabel(policy: RepeatPolicy): string {
  if (policy.kind === 'adaptive') return `adaptive ${policy.minSamples ?? 10}..${policy.maxSamples}`;
  return `fixed ${policy.repeats}${policy.test === 'fisher' ? ' (plain Fisher)' : ''}`;
}

/** Samples one case's current run under the policy; returns counts and the per-case verdict. */
function runCase(sampler: CaseSampler, baseline: Samples, policy: RepeatPolicy, alpha: number) {
  if (policy.kind === 'fixed') {
    const current = draw(sampler.current, policy.repeats);
    const flagged =
      policy.test === 'fisher'
        ? fisherOneSided(baseline, current) <= alpha
        : comparePassRates(baseline, current, { alpha }).dropped;
    return { current, flagged };
  }
  const options = { alpha, maxSamples: policy.maxSamples, minSamples: policy.minSamples ?? 10 };
  const current: Samples = { pass: 0, total: 0 };
  for (;;) {
    draw(sampler.current, nextLook(current, options) - current.total, current);
    const decision = nextSampleDecision(baseline, current, options);
    if (decision !== 'continue') return { current, flagged: decision === 'drift' };
  }
}

/**
 * Runs `trials` independent baseline+current draws. One case: the case's own verdict.
 * Several cases: the suite verdict on the final counts.
 */
export function evaluateScenario(
  cases: CaseSampler[],
  policy: RepeatPolicy,
  options: ScenarioOptions,
): ScenarioResult & { policy: string } {
  const alpha = options.alpha ?? 0.05;
  const baselineSamples =
    options.baselineSamples ?? (policy.kind === 'fixed' ? policy.repeats : policy.maxSamples);
  let flagged = 0;
  let samples = 0;
  for (let t = 0; t < options.trials; t++) {
    const runs = cases.map((sampler) => {
      const baseline = draw(sampler.baseline, baselineSamples);
      return { baseline, ...runCase(sampler, baseline, policy, alpha) };
    });
    for (const r of runs) samples += r.current.total;
    const hit = runs.length === 1 ? runs[0]!.flagged : suiteVerdict(runs, { alpha }).dropped;
    if (hit) flagged++;
  }
  return {
    policy: policyLabel(policy),
    trials: options.trials,
    flaggedRate: flagged / options.trials,
    meanSamples: samples / (options.trials * cases.length),
  };
}
