import { checkFinishReason } from '../text.js';
import type { CheckDefinition } from '../registry.js';

/** `finish_reason`: Passes when the finish_reason equals the value. */
export const finishReason: CheckDefinition<string> = {
  schema: {
    type: 'string',
    minLength: 1,
    title: 'Finish reason',
    description:
      "Passes when the completion's finish_reason equals this value, e.g. stop (a normal end) or length (cut off by max_tokens).",
    examples: ['stop', 'length'],
  },
  parse: (value) => String(value),
  run: checkFinishReason,
};
