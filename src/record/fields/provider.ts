import type { RecordedField } from '../field.js';
import { everyValue, firstValue } from '../folds.js';
import { internedString } from '../read.js';
import { servedChange } from '../served-change.js';

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
  drift: {
    kinds: ['provider_changed'] as const,
    diff: ({ baseline, current, candidate }) =>
      servedChange({
        kind: 'provider_changed',
        label: 'provider',
        severity: { nightly: 'fail', candidate: 'info' },
        seen: current.providers as string[],
        was: baseline,
        candidate,
        note: ' (pin it with params.provider: { only: [...], allow_fallbacks: false })',
      }),
  },
} satisfies RecordedField<string>;
