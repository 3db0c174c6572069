import { DIRECT_RULES } from './direct-rules.js';
import { firstRequest } from './first-request.js';
import type { ServiceAdapter } from './types.js';

/** The seed's first request to Service B. */
const FIRST = firstRequest(1024);

/** Service B: a direct model service (OpenAI/Moonshot-like). */
export const direct: ServiceAdapter = {
  title: 'the service',
  noun: 'a direct service',
  schema: {
    is: "Service B, a model vendor's own API",
    semantics: 'Service B semantics (its own model ids, reasoning_effort)',
  },
  defaults: { max_tokens: FIRST.max_tokens, base_url: '${DIRECT_BASE_URL}', api_key_env: 'DIRECT_API_KEY' },
  verify: FIRST,
  keys: {
    owns: (key) => key.startsWith('sk-') && !key.startsWith('sk-or-'),
    foreign: (key) => (key.startsWith('sk-or-') ? 'a routing-service key (sk-or-…)' : null),
  },
  // Only Service B documents reasoning_effort; a direct service has no providers to pin.
  params: ['reasoning_effort'],
  // A streamed answer carries usage only when asked (a final chunk with empty choices); the
  // router always sends it. A suite's own stream_options win.
  adjust: (params) =>
    params.stream === true && params.stream_options === undefined
      ? { ...params, stream_options: { include_usage: true } }
      : params,
  // No response cache: every answer is generated (OpenAI's prompt caching only discounts the prompt).
  responseCache: false,
  // Its own models only: no family aliases, no providers to route to, no prices in its list.
  aliases: false,
  routing: null,
  catalog: { prices: false },
  // Its own ids are bare (`kimi-k2-0905-preview`, `gpt-4o`).
  modelIds: { fits: (model) => !model.includes('/'), shape: "a bare id, a direct service's" },
  rules: DIRECT_RULES,
  simulator: 'direct',
};
