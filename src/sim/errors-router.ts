import { maskKey } from './keys.js';
import { type ErrorContext, type ErrorFault, jsonReply, rateLimitHeaders, type SimReply } from './reply.js';

/**
 * Service A (OpenRouter-style) error replies: `{error:{code, message, metadata:{error_type,
 * provider_code?}}}` with the HTTP status equal to `error.code` (service-facts.md §1).
 */
function routerError(
  status: number,
  message: string,
  metadata: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): SimReply {
  return jsonReply(status, { error: { code: status, message, metadata, ...extra } }, headers);
}

/** 400 for a malformed request body. */
export function routerBadRequest(message: string): SimReply {
  return routerError(400, message, { error_type: 'invalid_request' });
}

/**
 * The router's 404 when no provider of the model can take the request's parameters: with
 * `require_parameters: true` (any parameter), or a request with tools no provider supports.
 * The body is as the router sends it, without `metadata`.
 */
export function routerNoEndpoints(why: 'parameters' | 'tool_use'): SimReply {
  const message =
    why === 'parameters'
      ? 'No endpoints found that can handle the requested parameters.'
      : 'No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/guides/routing/provider-selection';
  return jsonReply(404, { error: { message, code: 404 } });
}

export function routerFault(fault: ErrorFault, ctx: ErrorContext): SimReply {
  switch (fault) {
    case 'auth': {
      if (ctx.key === null)
        return routerError(401, 'No auth credentials found', { error_type: 'authentication' });
      const shown = ctx.echoKey ? ctx.key : maskKey(ctx.key);
      return routerError(
        401,
        `Invalid API key provided: ${shown}. Check the key and the base URL together.`,
        { error_type: 'authentication' },
      );
    }
    case 'permission':
      return routerError(403, 'Forbidden: this key is not permitted to use the requested model.', {
        error_type: 'permission_denied',
      });
    case 'insufficient_credit':
      // With a wait: the in-flight budget (requests under way hold credit) — "wait and retry".
      if (ctx.retryAfterSet)
        return routerError(
          402,
          'Insufficient credits: the in-flight budget of this key is in use by requests under way.',
          { error_type: 'payment_required', limit_source: 'openrouter_in_flight_budget' },
          {},
          { 'retry-after': String(ctx.retryAfterS) },
        );
      return routerError(402, 'Insufficient credits: this key has reached its credit limit.', {
        error_type: 'payment_required',
        limit_source: 'openrouter_key_limit',
      });
    case 'depleted':
      return routerError(
        402,
        'Insufficient credits: the account balance is exhausted. Add more credits and retry.',
        {
          error_type: 'payment_required',
          limit_source: 'openrouter_credits',
        },
      );
    case 'budget_exceeded':
      // The docs give only the message; the budget is a spend condition, hence payment_required.
      return routerError(403, 'Workspace monthly budget of $500.00 exceeded. Contact your org admin.', {
        error_type: 'payment_required',
      });
    case 'routing':
      // With a wait: providers are busy or down for now, come back after Retry-After (503 may carry it).
      if (ctx.retryAfterSet)
        return routerError(
          503,
          'No available model provider meets your routing requirements.',
          { error_type: 'provider_unavailable' },
          {},
          { 'retry-after': String(ctx.retryAfterS) },
        );
      return routerError(
        503,
        'No available model provider meets your routing requirements.',
        {},
        { availability: { code: 'no_endpoints', retryable: false, requested_models: [ctx.model] } },
      );
    case 'rate_limited':
      return routerError(
        429,
        'Rate limit exceeded: too many requests.',
        { error_type: 'rate_limit_exceeded', provider_code: 'rate_limited' },
        {},
        rateLimitHeaders(ctx.retryAfterS),
      );
    case 'invalid_model':
      return routerError(
        400,
        `${ctx.model} is not a valid model ID`,
        { error_type: 'not_found' },
        { availability: { code: 'model_not_found', retryable: false, requested_models: [ctx.model] } },
      );
    case 'server_error':
      // 502: "your chosen model is down or we received an invalid response from it".
      return routerError(502, 'Provider returned error', {
        error_type: 'provider_unavailable',
        provider_code: 'upstream_error',
      });
  }
}
