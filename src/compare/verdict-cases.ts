import type { BaselineFigures } from '../stored/baseline/suite-baseline.js';
import { baselineSamples } from '../fold/pass-rates.js';
import type { VerdictCase } from './verdict.js';

/**
 * A baseline case as the reference of a candidate comparison: the samples the fold
 * compared each candidate with (`baselineSamples`, the one rule: a 1-sample baseline counts
 * as one sample), the cost of its recorded answer and its latency sketch. Keyed
 * `suite/case`, as a run's cases are (a run's own: verdictCaseOf in compare/side.ts). Pure.
 */
export function verdictCaseOfBaseline(suite: string, caseId: string, entry: BaselineFigures): VerdictCase {
  const cost = entry.usage?.cost;
  return {
    id: `${suite}/${caseId}`,
    samples: baselineSamples(entry)!,
    cost: typeof cost === 'number' && Number.isFinite(cost) ? cost : null,
    latency_ms: entry.latency_ms?.sample ?? [],
  };
}
