import { baselineFromEntries } from '../../src/baseline/build.js';
import type { Baseline, BaselineCase } from '../../src/stored/baseline/types.js';
import type { SampleResult } from '../../src/stored/journal/records.js';
import type { CaseError } from '../../src/core/answer.js';
import { foldSamples } from '../helpers/fold.js';
import { sampleResult } from '../helpers/results.js';

/** A finished sample with the baseline tests' defaults (suite `refunds`). */
export const result = sampleResult;

export function caseError(kind: CaseError['kind'], message = 'boom'): CaseError {
  return { kind, http_status: 500, type: null, code: null, message, model: 'openai/gpt-4o-mini' };
}

/** The baseline entry that `result()`'s defaults would produce. */
export function baselineCase(over: Partial<BaselineCase> = {}): BaselineCase {
  return {
    status: 'pass',
    requested_model: 'openai/gpt-4o-mini',
    model: 'openai/gpt-4o-mini',
    finish_reason: 'stop',
    usage: { prompt_tokens: 20, completion_tokens: 100, total_tokens: 120 },
    content: 'Refunds are accepted within 30 days of purchase.',
    error_kind: null,
    checks: [{ type: 'contains', pass: true }],
    ...over,
  };
}

/** baselineFromEntries over samples folded as a run folds them. */
export async function fromResults(input: {
  results: SampleResult[];
  previous: Baseline | null;
  only?: string[];
  suite?: string;
}): Promise<Baseline> {
  const report = await foldSamples(input.results);
  return baselineFromEntries({
    suite: input.suite ?? 'refunds',
    service: 'router',
    model: 'openai/gpt-4o-mini',
    run_id: 'run-2',
    cases: report.cases,
    previous: input.previous,
    ...(input.only ? { only: input.only } : {}),
  });
}
