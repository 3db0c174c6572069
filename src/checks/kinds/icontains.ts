import { checkIcontains } from '../text.js';
import type { CheckDefinition } from '../registry.js';

/** `icontains`: Passes when the answer contains the text, ignoring case. */
export const icontains: CheckDefinition<string> = {
  schema: {
    type: 'string',
    title: 'Content contains, ignoring case',
    description: 'Passes when the answer contains this text, compared case-insensitively (Unicode-aware).',
  },
  parse: (value) => String(value),
  run: checkIcontains,
};
