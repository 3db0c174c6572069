import type { RecordedField } from '../field.js';
import { firstValue, sum } from '../folds.js';
import { usageDetail } from '../read.js';
import { REASONING_KINDS, reasoningDrift } from '../reasoning-change.js';

/**
 * `usage.completion_tokens_details.reasoning_tokens`: the first sample's on the case entry
 * (beside its usage) and in the baseline, summed over a case's samples in its stats; its move
 * against the baseline's is reasoning_changed, judged as usage_changed's tokens are.
 */
export const reasoningTokens = {
  schema: { type: 'integer' },
  extract: ({ body }) => usageDetail(body, 'completion_tokens_details', 'reasoning_tokens'),
  // A case sampled once: its stats' sum is that sample's count (a line leaves it out then).
  case: {
    reasoning_tokens: firstValue<number>((c) => {
      const sum = (c.stats as { reasoning_tokens?: number } | undefined)?.reasoning_tokens;
      return (c.samples as { sent?: number } | undefined)?.sent === 1 && sum ? sum : null;
    }),
  },
  stats: { reasoning_tokens: sum() },
  baseline: { from: 'reasoning_tokens' },
  detail: {
    at: 'usage',
    rows: (c) => [
      {
        term: 'reasoning tokens',
        text: typeof c.reasoning_tokens === 'number' ? String(c.reasoning_tokens) : null,
      },
    ],
  },
  drift: {
    kinds: REASONING_KINDS,
    diff: (input) => reasoningDrift('reasoning tokens', input, input.current.reasoning_tokens),
  },
} satisfies RecordedField<number>;
