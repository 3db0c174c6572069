import type { RecordedField } from '../field.js';
import { firstValue } from '../folds.js';
import { internedString } from '../read.js';

/** `native_finish_reason`: the provider's own finish reason, behind the router's normalised one. */
export const nativeFinishReason = {
  schema: { type: 'string' },
  extract: ({ choice }) => (choice ? internedString(choice.native_finish_reason) : null),
  case: { native_finish_reason: firstValue<string>() },
} satisfies RecordedField<string>;
