import { baselineSamples } from '../fold/pass-rates.js';
import type { Baseline, CaseEntry } from '../types.js';
import type { VerdictCase } from './candidate-verdict.js';

/**
 * A run's cases as a paired verdict reads them: each case's samples as the fold counted
 * them against its baseline (passed of sent), its mean cost per sample, and its answered
 * samples' latencies (the case's latency sketch: every value up to 20 answers, evenly
 * spaced quantiles beyond). Cases that were not run are left out. Pure.
 */
export function verdictCasesOfRun(cases: Iterable<CaseEntry>): VerdictCase[] {
  const out: VerdictCase[] = [];
  for (const c of cases) {
    if (c.samples.sent === 0) continue;
    const { cost, with_cost } = c.stats;
    out.push({
      id: c.id,
      samples: { pass: c.samples.passed, total: c.samples.sent },
      cost: cost !== null && with_cost > 0 ? cost / with_cost : null,
      latency_ms: c.stats.answered.latency_ms?.sample ?? [],
    });
  }
  return out;
}

/**
 * The current baselines as the reference of a candidate comparison: per case the samples
 * the fold compared each candidate with (`baselineSamples`, the one rule: a 1-sample
 * baseline counts as one sample), the cost of its recorded answer and its latency sketch.
 * Keyed `suite/case`, as a run's cases are. Pure.
 */
export function verdictCasesOfBaselines(baselines: Iterable<Baseline>): VerdictCase[] {
  const out: VerdictCase[] = [];
  for (const baseline of baselines)
    for (const [id, entry] of Object.entries(baseline.cases)) {
      const cost = entry.usage?.cost;
      out.push({
        id: `${baseline.suite}/${id}`,
        samples: baselineSamples(entry)!,
        cost: typeof cost === 'number' && Number.isFinite(cost) ? cost : null,
        latency_ms: entry.latency_ms?.sample ?? [],
      });
    }
  return out;
}
