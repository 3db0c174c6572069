import { checkContains } from '../text.js';
import type { CheckDefinition } from '../registry.js';

/** `contains`: Passes when the answer contains the text (case-sensitive). */
export const contains: CheckDefinition<string> = {
  schema: {
    type: 'string',
    title: 'Content contains',
    description: 'Passes when the answer contains this text exactly (case-sensitive).',
    examples: ['30 days'],
  },
  parse: (value) => String(value),
  run: checkContains,
};
