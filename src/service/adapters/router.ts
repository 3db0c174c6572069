import { ROUTER_RULES } from '../classify-router.js';
import type { ServiceAdapter } from './types.js';

/** Service A: the routing service (OpenRouter-like). */
export const router: ServiceAdapter = {
  title: 'the routing service',
  defaults: { max_tokens: 512, base_url: 'https://openrouter.ai/api/v1', api_key_env: 'OPENROUTER_API_KEY' },
  keys: {
    owns: (key) => key.startsWith('sk-or-'),
    foreign: (key) =>
      key.startsWith('sk-') && !key.startsWith('sk-or-')
        ? 'a direct-service key (sk-… without sk-or-)'
        : null,
  },
  // Its documented provider preferences, sent as given: a suite pins the provider as it pins
  // the model. (reasoning_effort, the direct service's, is not sent: the router would remap or reject it.)
  params: ['provider'],
  rules: ROUTER_RULES,
};
