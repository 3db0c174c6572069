import { didYouMean } from '../../util/did-you-mean.js';
import { show } from '../../yaml/show.js';
import { checkFinishReason } from '../text.js';
import type { CheckDefinition } from '../registry.js';

/**
 * The finish_reason values the services document: OpenAI's `CreateChatCompletionResponse`
 * (stop, length, tool_calls, content_filter, function_call) and the router's normalised set,
 * which adds `error`. Services add values, so another one is a warning, not an error.
 */
const KNOWN_FINISH_REASONS = ['stop', 'length', 'tool_calls', 'content_filter', 'function_call', 'error'];

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
  problems: (value, where) => {
    if (typeof value !== 'string' || KNOWN_FINISH_REASONS.includes(value)) return [];
    const guess = didYouMean(value, KNOWN_FINISH_REASONS);
    return [
      {
        severity: 'warning',
        pointer: '',
        message: `'${where}' ${show(value)} is not a finish_reason the services document (${KNOWN_FINISH_REASONS.join(', ')})`,
        hint: guess
          ? `did you mean '${guess}'? (a check for a value no service sends fails on every answer)`
          : 'keep it only if your service sends it: the check compares the value exactly',
      },
    ];
  },
  run: checkFinishReason,
};
