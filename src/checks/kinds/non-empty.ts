import { checkNonEmpty } from '../text.js';
import type { CheckDefinition } from '../registry.js';

/** `non_empty`: Passes when the content is (non-)blank as asked. */
export const nonEmpty: CheckDefinition<boolean> = {
  schema: {
    type: 'boolean',
    title: 'Content is (not) empty',
    description: 'true: the answer must contain non-whitespace text; false: it must be empty.',
  },
  parse: (value) => value === true,
  run: checkNonEmpty,
};
