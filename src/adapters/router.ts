import { ROUTER_RULES } from './router-rules.js';
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
  // A provider that does not support tools or a response format ignores them unless the
  // request requires its parameters (require_parameters defaults to false): then the
  // answers would test a provider that never saw the tools. A suite's own value wins.
  adjust: (params) =>
    (params.tools !== undefined || params.response_format !== undefined) &&
    params.provider?.require_parameters === undefined
      ? { ...params, provider: { ...params.provider, require_parameters: true } }
      : params,
  rules: ROUTER_RULES,
};
