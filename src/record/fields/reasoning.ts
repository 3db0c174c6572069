import { textRow } from '../detail.js';
import type { Fold, RecordedField } from '../field.js';
import { firstValue } from '../folds.js';
import { text } from '../read.js';
import { REASONING_KINDS, reasoningDrift } from '../reasoning-change.js';
import { MIN_TOKEN_CHANGE } from '../usage-change.js';

/** About four characters a token: a reasoning text must move this much to count. */
const MIN_CHARS_CHANGE = MIN_TOKEN_CHANGE * 4;

/** The length of the first sample's reasoning; a line derives it from the entry's reasoning text. */
const firstLength: Fold<string, number | null> = {
  schema: () => ({ type: ['integer', 'null'], minimum: 0 }),
  result: (_state, kept) => (kept.first === null ? null : kept.first.length),
  line: (entry) => (typeof entry.reasoning === 'string' ? entry.reasoning.length : null),
};

/**
 * `message.reasoning`: a reasoning model's summary of its thinking, as the router returns it
 * (bounded and redacted with the body). Recorded, never sent back: a tool loop sends the
 * turn's `reasoning_details` instead, as the router's reasoning-tokens guide asks. A baseline
 * keeps its length (`reasoning_chars`), which drifts as reasoning tokens do.
 */
export const reasoning = {
  schema: { type: 'string' },
  extract: ({ message }) => (message ? text(message.reasoning) : null),
  case: { reasoning: firstValue<string>(), reasoning_chars: firstLength },
  baseline: { from: 'reasoning_chars' },
  detail: { at: 'outcome', rows: (c) => [textRow('reasoning', c.reasoning)] },
  drift: {
    kinds: REASONING_KINDS,
    diff: (input) =>
      reasoningDrift('reasoning characters', input, input.current.reasoning_chars, MIN_CHARS_CHANGE),
  },
} satisfies RecordedField<string, number>;
