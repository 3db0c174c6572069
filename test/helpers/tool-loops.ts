import type { Baseline, BaselineCase } from '../../src/stored/baseline/types.js';

/** A tool loop of `steps` requests as a sample records it: lookup_order each step but the last, which answered. */
export const trajectoryOf = (steps: number) => ({
  steps,
  calls: Array.from({ length: steps - 1 }, (_, i) => ({
    step: i + 1,
    tool: 'lookup_order',
    arguments: '{"order":"42"}',
    result: '{"status":"shipped"}',
  })),
});

/** The `agent` suite's baseline: each case a passing 3-step loop (sampleResult's answer), with what a test sets over it. */
export function loopBaseline(cases: Record<string, Partial<BaselineCase>>): Baseline {
  const full = (c: Partial<BaselineCase>): BaselineCase => ({
    status: 'pass',
    requested_model: 'openai/gpt-4o-mini',
    model: 'openai/gpt-4o-mini',
    finish_reason: 'stop',
    usage: { prompt_tokens: 20, completion_tokens: 100, total_tokens: 120 },
    content: 'Refunds are accepted within 30 days of purchase.',
    error_kind: null,
    checks: [{ type: 'contains', pass: true }],
    trajectory: trajectoryOf(3),
    ...c,
  });
  return {
    schema_version: 1,
    suite: 'agent',
    service: 'router',
    model: 'openai/gpt-4o-mini',
    source_run: 'r0',
    cases: Object.fromEntries(Object.entries(cases).map(([id, c]) => [id, full(c)])),
  };
}
