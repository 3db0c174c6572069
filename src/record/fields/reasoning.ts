import { textRow } from '../detail.js';
import type { RecordedField } from '../field.js';
import { firstValue } from '../folds.js';
import { text } from '../read.js';

/**
 * `message.reasoning`: a reasoning model's summary of its thinking, as the router returns it
 * (bounded and redacted with the body). Recorded, never sent back: a tool loop sends the
 * turn's `reasoning_details` instead, as the router's reasoning-tokens guide asks.
 */
export const reasoning = {
  schema: { type: 'string' },
  extract: ({ message }) => (message ? text(message.reasoning) : null),
  case: { reasoning: firstValue<string>() },
  detail: { at: 'outcome', rows: (c) => [textRow('reasoning', c.reasoning)] },
} satisfies RecordedField<string>;
