import { valuesRow } from '../detail.js';
import type { RecordedField } from '../field.js';
import { everyValue, firstValue } from '../folds.js';
import { internedString } from '../read.js';
import { servedDrift } from '../served-change.js';

/** `system_fingerprint`: the backend configuration that answered (both services). */
export const systemFingerprint = {
  schema: { type: 'string' },
  extract: ({ body }) => internedString(body.system_fingerprint),
  case: { system_fingerprint: firstValue<string>(), fingerprints: everyValue<string>() },
  baseline: { from: 'system_fingerprint' },
  detail: { at: 'served', rows: (c) => [valuesRow('system_fingerprint', c.fingerprints)] },
  drift: servedDrift({
    kind: 'fingerprint_changed',
    row: { severity: 'warn', candidate: 'info' },
    label: 'system_fingerprint',
    seen: 'fingerprints',
    note: ' (the backend configuration changed)',
  }),
} satisfies RecordedField<string>;
