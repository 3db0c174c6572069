import { checkEquals } from '../text.js';
import type { CheckDefinition } from '../registry.js';

/** `equals`: Passes when the trimmed answer equals the text. */
export const equals: CheckDefinition<string> = {
  schema: {
    type: 'string',
    title: 'Content equals',
    description: 'Passes when the answer, with surrounding whitespace trimmed, is exactly this text.',
  },
  parse: (value) => String(value),
  run: checkEquals,
};
