import type { RecordedField } from '../field.js';
import { sum } from '../folds.js';
import { usageDetail } from '../read.js';

/** `usage.completion_tokens_details.reasoning_tokens`: summed over a case's samples in its stats. */
export const reasoningTokens = {
  schema: { type: 'integer' },
  extract: ({ body }) => usageDetail(body, 'completion_tokens_details', 'reasoning_tokens'),
  stats: { reasoning_tokens: sum() },
} satisfies RecordedField<number>;
