import type { SimFlavour } from '../adapters/index.js';
import { directModelsBody, routerEndpointsBody, routerModelsBody, routerProvidersBody } from './catalog.js';
import { acceptsKey, type SimConfig } from './completion.js';
import { directFault } from './errors-direct.js';
import { routerFault } from './errors-router.js';
import { bearerToken, maskKey } from './keys.js';
import { jsonReply, type SimReply } from './reply.js';
import type { SimState } from './state.js';

/** Which chat-completion endpoint a path is, if any. */
export function completionEndpoint(path: string): SimFlavour | null {
  if (path === '/api/v1/chat/completions') return 'router';
  if (path === '/v1/chat/completions') return 'direct';
  return null;
}

/** The model a router path `/api/v1/models/{author}/{slug}/endpoints` asks about, or null. */
function endpointsModel(path: string): string | null {
  const m = /^\/api\/v1\/models\/([^/]+)\/(.+)\/endpoints$/.exec(path);
  if (!m) return null;
  try {
    return `${decodeURIComponent(m[1]!)}/${decodeURIComponent(m[2]!)}`;
  } catch {
    return null;
  }
}

/**
 * Every endpoint except chat completions: the model lists, the router's providers and a
 * model's endpoints, its key info and the simulator's own stats. Unknown paths get a 404 in
 * the shape of the platform they resemble.
 */
export function routeOther(
  method: string,
  path: string,
  authorization: string | undefined,
  config: SimConfig,
  state: SimState,
): SimReply {
  const isRouterPath = path.startsWith('/api/');
  const endpointsOf = endpointsModel(path);
  const known =
    ['/api/v1/models', '/v1/models', '/api/v1/key', '/api/v1/providers', '/__sim/stats'].includes(path) ||
    endpointsOf !== null ||
    completionEndpoint(path);
  if (!known) return notFound(isRouterPath, method, path);
  const expected = completionEndpoint(path) ? 'POST' : 'GET';
  if (method !== expected) return methodNotAllowed(isRouterPath, method, path, expected);
  if (path === '/__sim/stats') return jsonReply(200, state.stats());
  // The router's model list is public; everything else needs the platform's key.
  if (path === '/api/v1/models')
    return jsonReply(200, routerModelsBody(state.aliasResolutions, config.aliasMoveAfter));
  const kind: SimFlavour = isRouterPath ? 'router' : 'direct';
  const key = bearerToken(authorization);
  if (!acceptsKey(kind, key, config)) {
    const ctx = { model: '', key, echoKey: config.echoKey, retryAfterS: 1 };
    return kind === 'router' ? routerFault('auth', ctx) : directFault('auth', ctx);
  }
  if (path === '/v1/models') return jsonReply(200, directModelsBody());
  if (path === '/api/v1/providers') return jsonReply(200, routerProvidersBody());
  if (endpointsOf !== null) {
    const body = routerEndpointsBody(endpointsOf);
    // The documented 404 "Model does not exist", in the router's error shape.
    return body
      ? jsonReply(200, body)
      : jsonReply(404, {
          error: {
            code: 404,
            message: `Model ${endpointsOf} does not exist`,
            metadata: { error_type: 'not_found' },
          },
        });
  }
  return jsonReply(200, keyInfoBody(key, config, state));
}

/**
 * `GET /api/v1/key`. In the simulator one successful completion spends one credit, so
 * `limit` is `creditAfter` and `limit_remaining` counts down to 0 as completions succeed.
 */
function keyInfoBody(key: string, config: SimConfig, state: SimState): unknown {
  const used = state.successesOf(key);
  const limit = config.creditAfter;
  return {
    data: {
      label: `sim ${maskKey(key)}`,
      limit,
      limit_remaining: limit === null ? null : Math.max(0, limit - used),
      limit_reset: null,
      include_byok_in_limit: false,
      usage: used,
      usage_daily: used,
      usage_weekly: used,
      usage_monthly: used,
      byok_usage: 0,
      byok_usage_daily: 0,
      byok_usage_weekly: 0,
      byok_usage_monthly: 0,
      is_free_tier: false,
      is_management_key: false,
      is_provisioning_key: false,
      expires_at: null,
      creator_user_id: null,
      organization_id: null,
      workspace_id: null,
      allowed_data_regions: ['global'],
      free_model_daily_requests: { limit: 1000, remaining: 1000, used: 0 },
      // Deprecated upstream (api_reference/limits.mdx), still in the response schema.
      rate_limit: { requests: -1, interval: '10s', note: 'This field is deprecated and safe to ignore.' },
    },
  };
}

function notFound(routerShape: boolean, method: string, path: string): SimReply {
  const message = `Unknown request URL: ${method} ${path}`;
  return routerShape
    ? jsonReply(404, { error: { code: 404, message, metadata: { error_type: 'not_found' } } })
    : jsonReply(404, { error: { message, type: 'invalid_request_error', param: null, code: 'unknown_url' } });
}

function methodNotAllowed(routerShape: boolean, method: string, path: string, allowed: string): SimReply {
  const message = `Method ${method} is not allowed on ${path}; use ${allowed}.`;
  const headers = { allow: allowed };
  return routerShape
    ? jsonReply(405, { error: { code: 405, message, metadata: { error_type: 'invalid_request' } } }, headers)
    : jsonReply(405, { error: { message, type: 'invalid_request_error', param: null, code: null } }, headers);
}
