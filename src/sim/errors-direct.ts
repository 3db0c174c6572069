import { maskKey } from './keys.js';
import { type ErrorContext, type ErrorFault, jsonReply, type SimReply } from './reply.js';

/**
 * Service B (OpenAI/Moonshot-compatible) error replies: `{error:{message, type, param, code}}`
 * (service-facts.md §2). Budget conditions are 429s told apart by `type`/`code`, not status.
 */
function directError(
  status: number,
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
  headers: Record<string, string> = {},
): SimReply {
  return jsonReply(status, { error: { message, type, param, code } }, headers);
}

/** 400 for a malformed request body, naming the offending parameter. */
export function directBadRequest(message: string, param: string | null = null): SimReply {
  return directError(400, message, 'invalid_request_error', null, param);
}

/**
 * 400 for a parameter the model does not take, as OpenAI answers `max_tokens` sent to a
 * reasoning model: `unsupported_parameter`, naming the parameter to use instead.
 */
export function directUnsupportedParameter(param: string, instead: string): SimReply {
  return directError(
    400,
    `Unsupported parameter: '${param}' is not supported with this model. Use '${instead}' instead.`,
    'invalid_request_error',
    'unsupported_parameter',
    param,
  );
}

/** 400 for a value the model does not take, as OpenAI answers a temperature other than 1 sent to a reasoning model. */
export function directUnsupportedValue(param: string, value: unknown, only: unknown): SimReply {
  return directError(
    400,
    `Unsupported value: '${param}' does not support ${String(value)} with this model. Only the default (${String(only)}) value is supported.`,
    'invalid_request_error',
    'unsupported_value',
    param,
  );
}

export function directFault(fault: ErrorFault, ctx: ErrorContext): SimReply {
  switch (fault) {
    case 'auth': {
      if (ctx.key === null) {
        return directError(
          401,
          "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
          'invalid_request_error',
          'invalid_api_key',
        );
      }
      const shown = ctx.echoKey ? ctx.key : maskKey(ctx.key);
      return directError(
        401,
        `Incorrect API key provided: ${shown}. Check that the key was issued by this platform for this base URL.`,
        'invalid_request_error',
        'invalid_api_key',
      );
    }
    case 'permission':
      return directError(
        403,
        'Permission denied: the request was rejected by the project/organization configuration or network egress rules (IP allowlist).',
        'permission_denied_error',
        null,
      );
    case 'insufficient_credit':
      return directError(
        429,
        'Your credit balance is too low to access the API. Please add credits and try again.',
        'insufficient_quota',
        'credit_balance_exhausted',
      );
    case 'budget_exceeded':
      return directError(
        429,
        'You have exceeded the project daily budget. Raise the budget or wait for it to reset.',
        'insufficient_quota',
        'project_spend_limit_exceeded',
      );
    case 'depleted':
      return directError(
        429,
        'Your account is suspended due to insufficient balance, please recharge your account and try again.',
        'exceeded_current_quota_error',
        null,
      );
    case 'routing':
      // A direct service serves its own models: there is no routing to fail, so the fault is refused.
      return directBadRequest(
        'Routing does not apply to this service: it serves its own models directly (the routing fault exists on the router endpoint only).',
      );
    case 'rate_limited':
      return directError(
        429,
        `Rate limit reached for requests. Please try again in ${ctx.retryAfterS}s.`,
        'requests',
        'rate_limit_exceeded',
        null,
        // OpenAI's headers: no Retry-After, the reset times as durations.
        {
          'x-ratelimit-limit-requests': '60',
          'x-ratelimit-remaining-requests': '0',
          'x-ratelimit-reset-requests': `${ctx.retryAfterS}s`,
          'x-ratelimit-reset-tokens': '1ms',
        },
      );
    case 'invalid_model':
      return directError(
        404,
        `The model \`${ctx.model}\` does not exist or you do not have access to it.`,
        'invalid_request_error',
        'model_not_found',
        'model',
      );
    case 'server_error':
      return directError(
        500,
        'The server had an error while processing your request. Sorry about that!',
        'server_error',
        null,
      );
  }
}
