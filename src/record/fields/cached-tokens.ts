import type { RecordedField } from '../field.js';
import { usageDetail } from '../read.js';

/** `usage.prompt_tokens_details.cached_tokens`: kept on each sample (the journal) only. */
export const cachedTokens = {
  schema: { type: 'integer' },
  extract: ({ body }) => usageDetail(body, 'prompt_tokens_details', 'cached_tokens'),
} satisfies RecordedField<number>;
