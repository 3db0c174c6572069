import { checkNotContains } from '../text.js';
import type { CheckDefinition } from '../registry.js';

/** `not_contains`: Passes when the answer does not contain the text. */
export const notContains: CheckDefinition<string> = {
  schema: {
    type: 'string',
    title: 'Content does not contain',
    description: 'Passes when the answer does not contain this text (case-sensitive).',
  },
  parse: (value) => String(value),
  run: checkNotContains,
};
