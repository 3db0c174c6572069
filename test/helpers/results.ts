import type { SampleResult } from '../../src/stored/journal/records.js';

/** A finished sample of `suite/case#repeat` with sensible defaults; override what a test is about. */
export function sampleResult(over: Partial<SampleResult> & { case: string }): SampleResult {
  const suite = over.suite ?? 'refunds';
  const repeat = over.repeat ?? 0;
  return {
    key: `${suite}/${over.case}#${repeat}`,
    suite,
    repeat,
    service: 'router',
    requested_model: 'openai/gpt-4o-mini',
    model: 'openai/gpt-4o-mini',
    response_id: 'gen-1',
    finish_reason: 'stop',
    usage: { prompt_tokens: 20, completion_tokens: 100, total_tokens: 120 },
    latency_ms: 5,
    wait_ms: 0,
    attempts: 1,
    status: 'pass',
    error: null,
    attempt_errors: [],
    checks: [{ type: 'contains', pass: true, message: 'contains "30 days"' }],
    content: 'Refunds are accepted within 30 days of purchase.',
    started_at: '2026-01-01T00:00:00.000Z',
    redacted: false,
    ...over,
  };
}
