import { valuesRow } from '../detail.js';
import type { RecordedField } from '../field.js';
import { everyValue, firstValue } from '../folds.js';
import { internedString } from '../read.js';
import { servedDrift } from '../served-change.js';

/**
 * `provider`: the router's provider that served (documented in its chunk examples, not in
 * its OpenAPI ChatResult). Another provider serves the same catalog model on other
 * hardware, quantisation and limits: one of the commonest real causes of drift behind a router.
 */
export const provider = {
  schema: { type: 'string' },
  extract: ({ body }) => internedString(body.provider),
  case: { provider: firstValue<string>(), providers: everyValue<string>() },
  suite: { providers: { from: 'providers' } },
  baseline: { from: 'provider' },
  detail: { at: 'served', rows: (c) => [valuesRow('provider', c.providers, 'warn')] },
  drift: servedDrift({
    kind: 'provider_changed',
    row: { severity: 'fail', candidate: 'info' },
    label: 'provider',
    seen: 'providers',
    note: ' (pin it with params.provider: { only: [...], allow_fallbacks: false })',
  }),
} satisfies RecordedField<string>;
