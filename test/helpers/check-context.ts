import type { CheckContext } from '../../src/checks/registry.js';
import type { Completion } from '../../src/record/answer.js';

/** What a check sees of a sample: this completion, a one-message request, 120 ms and $0.00002, and no baseline unless given. */
export function contextOf(
  completion: Completion,
  over: Partial<Omit<CheckContext, 'completion'>> = {},
): CheckContext {
  return {
    completion,
    request: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], params: {} },
    baseline: null,
    measured: { latency_ms: 120, cost: 0.00002 },
    ...over,
  };
}
