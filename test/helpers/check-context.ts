import type { CheckContext } from '../../src/checks/registry.js';
import type { Completion } from '../../src/types.js';

/** What a check sees of a sample: this completion, a one-message request and no baseline unless given. */
export function contextOf(
  completion: Completion,
  over: Partial<Omit<CheckContext, 'completion'>> = {},
): CheckContext {
  return {
    completion,
    request: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], params: {} },
    baseline: null,
    ...over,
  };
}
