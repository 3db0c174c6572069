import { firstRequest } from './first-request.js';
import { ROUTER_RULES } from './router-rules.js';
import type { ServiceAdapter } from './types.js';

/** The seed's first request to Service A. */
const FIRST = firstRequest(512);

/**
 * `/models/{author}/{slug}/endpoints`, each part escaped (a slug may hold `/`); null for an
 * id that is not `author/slug`.
 */
function endpointsPath(model: string): string | null {
  const at = model.indexOf('/');
  if (at <= 0 || at === model.length - 1) return null;
  const slug = model
    .slice(at + 1)
    .split('/')
    .map(encodeURIComponent)
    .join('/');
  return `/models/${encodeURIComponent(model.slice(0, at))}/${slug}/endpoints`;
}

/** Service A: the routing service (OpenRouter-like). */
export const router: ServiceAdapter = {
  title: 'the routing service',
  noun: 'a routing service',
  schema: {
    is: 'Service A, a routing service such as OpenRouter',
    semantics: 'Service A semantics (catalog ids author/model, ~aliases, errors inside successful responses)',
  },
  defaults: {
    max_tokens: FIRST.max_tokens,
    base_url: 'https://openrouter.ai/api/v1',
    api_key_env: 'OPENROUTER_API_KEY',
  },
  verify: FIRST,
  keys: {
    owns: (key) => key.startsWith('sk-or-'),
    foreign: (key) =>
      key.startsWith('sk-') && !key.startsWith('sk-or-')
        ? 'a direct-service key (sk-… without sk-or-)'
        : null,
  },
  // Its documented request fields (api-reference parameters, provider-selection, reasoning-tokens,
  // plugins), sent as given: a suite pins the provider as it pins the model. `models` (a fallback
  // list: another model may answer) is refused by `validate` unless the suite allows it.
  // (reasoning_effort, the direct service's, is not sent: the router would remap or reject it.)
  params: [
    'provider',
    'reasoning',
    'top_k',
    'min_p',
    'repetition_penalty',
    'plugins',
    'transforms',
    'models',
  ],
  // A provider that does not support tools or a response format ignores them unless the
  // request requires its parameters (require_parameters defaults to false): then the
  // answers would test a provider that never saw the tools. A suite's own value wins.
  adjust: (params) =>
    (params.tools !== undefined || params.response_format !== undefined) &&
    params.provider?.require_parameters === undefined
      ? { ...params, provider: { ...params.provider, require_parameters: true } }
      : params,
  // Its response cache (response-caching guide): a hit reports every billable usage counter as 0.
  responseCache: true,
  // Documented (latest-resolution): the answer's `model` and the list's `alias_target` name the target.
  aliases: true,
  // GET /providers and GET /models/{author}/{slug}/endpoints (provider-selection, openapi).
  routing: { providers: '/providers', endpoints: endpointsPath },
  // `pricing.prompt`/`.completion` in USD per token on every row.
  catalog: { prices: true },
  // Catalog ids are `author/model` (its `~author/…-latest` aliases aside).
  modelIds: { fits: (model) => model.includes('/'), shape: "an author/model id, a routing service's" },
  rules: ROUTER_RULES,
  simulator: 'router',
};
