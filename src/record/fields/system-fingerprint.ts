import type { RecordedField } from '../field.js';
import { everyValue, firstValue } from '../folds.js';
import { internedString } from '../read.js';
import { servedChange } from '../served-change.js';

/** `system_fingerprint`: the backend configuration that answered (both services). */
export const systemFingerprint = {
  schema: { type: 'string' },
  extract: ({ body }) => internedString(body.system_fingerprint),
  case: { system_fingerprint: firstValue<string>(), fingerprints: everyValue<string>() },
  baseline: { from: 'system_fingerprint' },
  drift: {
    kinds: ['fingerprint_changed'] as const,
    diff: ({ baseline, current, candidate }) =>
      servedChange({
        kind: 'fingerprint_changed',
        label: 'system_fingerprint',
        severity: { nightly: 'warn', candidate: 'info' },
        seen: current.fingerprints as string[],
        was: baseline,
        candidate,
        note: ' (the backend configuration changed)',
      }),
  },
} satisfies RecordedField<string>;
