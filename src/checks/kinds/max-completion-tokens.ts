import { checkMaxCompletionTokens } from '../text.js';
import type { CheckDefinition } from '../registry.js';

/** `max_completion_tokens`: Passes when usage.completion_tokens is reported and at most the value. */
export const maxCompletionTokens: CheckDefinition<number> = {
  schema: {
    type: 'integer',
    minimum: 0,
    title: 'Completion token ceiling',
    description:
      'Passes when usage.completion_tokens is at most this number; fails when the service reported no usage.',
  },
  parse: (value) => Number(value),
  run: checkMaxCompletionTokens,
};
