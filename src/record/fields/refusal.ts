import { textRow } from '../detail.js';
import type { RecordedField } from '../field.js';
import { firstOrFailure } from '../folds.js';
import { text } from '../read.js';

/** `message.refusal`: the model's refusal text (its own outcome; checks run on it). */
export const refusal = {
  schema: { type: 'string' },
  extract: ({ message }) => (message ? text(message.refusal) : null),
  case: { refusal: firstOrFailure<string>() },
  detail: { at: 'outcome', rows: (c) => [textRow('refusal', c.refusal, 'bad')] },
} satisfies RecordedField<string>;
