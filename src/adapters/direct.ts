import { DIRECT_RULES } from './direct-rules.js';
import type { ServiceAdapter } from './types.js';

/** Service B: a direct model service (OpenAI/Moonshot-like). */
export const direct: ServiceAdapter = {
  title: 'the service',
  defaults: { max_tokens: 1024, base_url: '${DIRECT_BASE_URL}', api_key_env: 'DIRECT_API_KEY' },
  keys: {
    owns: (key) => key.startsWith('sk-') && !key.startsWith('sk-or-'),
    foreign: (key) => (key.startsWith('sk-or-') ? 'a routing-service key (sk-or-…)' : null),
  },
  // Only Service B documents reasoning_effort; a direct service has no providers to pin.
  params: ['reasoning_effort'],
  rules: DIRECT_RULES,
};
