import { textRow } from '../detail.js';
import type { RecordedField } from '../field.js';
import { firstValue } from '../folds.js';
import { internedString } from '../read.js';

/**
 * `native_finish_reason`: the provider's own finish reason, behind the router's normalised
 * one. A case line leaves it out where it is the normalised one (most are).
 */
export const nativeFinishReason = {
  schema: { type: 'string' },
  extract: ({ choice }) => (choice ? internedString(choice.native_finish_reason) : null),
  case: { native_finish_reason: firstValue<string>((c) => c.finish_reason) },
  detail: { at: 'usage', rows: (c) => [textRow('native finish_reason', c.native_finish_reason)] },
} satisfies RecordedField<string>;
