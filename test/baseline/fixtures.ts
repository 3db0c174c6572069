import type { BaselineCase, CaseError } from '../../src/types.js';
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
