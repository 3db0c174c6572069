import { describe, expect, it } from 'vitest';
import { isBudgetCondition } from '../../src/core/error-kinds.js';
import { classifyHttpFailure } from '../../src/service/classify.js';
import type { ServiceKind } from '../../src/config/types.js';
import type { ErrorKind } from '../../src/core/answer.js';

const MODEL = 'openai/gpt-4o-mini';
const routerError = (code: number, message: string, extra: Record<string, unknown> = {}) => ({
  error: { code, message, ...extra },
});
const availability = (status: number, code: string, retryable = false) =>
  routerError(status, `availability: ${code}`, {
    error_type: 'not_found',
    http_status: status,
    availability: { code, retryable, requested_models: [MODEL] },
  });
const openaiError = (message: string, type: string, code: string | null) => ({
  error: { message, type, param: null, code },
});
const kimiError = (type: string, message: string) => ({ error: { type, message } });

type Row = [name: string, status: number, body: unknown, kind: ErrorKind, code?: string | null];

const routerRows: Row[] = [
  ['401 invalid key', 401, routerError(401, 'No auth credentials found'), 'auth'],
  [
    '401 typed in metadata',
    401,
    routerError(401, 'User not found.', { metadata: { error_type: 'authentication' } }),
    'auth',
  ],
  [
    '402 out of credits',
    402,
    routerError(
      402,
      'This request requires more credits, or fewer max_tokens. You requested up to 512 tokens.',
    ),
    'insufficient_credit',
  ],
  [
    '402 in-flight budget',
    402,
    routerError(402, 'Insufficient credits', { metadata: { limit_source: 'openrouter_in_flight_budget' } }),
    'insufficient_credit',
  ],
  [
    '403 workspace budget',
    403,
    routerError(403, 'Workspace monthly budget of $500.00 exceeded. Contact your org admin.', {
      metadata: { error_type: 'permission_denied' },
    }),
    'budget_exceeded',
  ],
  [
    '403 key credit limit',
    403,
    routerError(403, 'Key limit exceeded (total limit). Manage it using https://openrouter.ai/settings/keys'),
    'insufficient_credit',
  ],
  [
    '403 moderation',
    403,
    routerError(
      403,
      'openai/gpt-4o requires moderation on OpenRouter. Your input was flagged for "harassment"',
      {
        metadata: {
          reasons: ['harassment'],
          flagged_input: 'you are...',
          provider_name: 'OpenAI',
          model_slug: MODEL,
        },
      },
    ),
    'permission',
    'moderation',
  ],
  [
    '403 guardrail',
    403,
    routerError(403, 'Blocked by guardrail', { metadata: { error_type: 'permission_denied' } }),
    'permission',
  ],
  ['403 region', 403, availability(403, 'region_restricted'), 'permission', 'region_restricted'],
  [
    '400 model_not_found availability',
    400,
    availability(400, 'model_not_found'),
    'invalid_model',
    'model_not_found',
  ],
  ['400 not a valid model id', 400, routerError(400, 'foo/bar is not a valid model ID'), 'invalid_model'],
  [
    '400 error_type not_found inside error',
    400,
    routerError(400, 'Model missing', { error_type: 'not_found' }),
    'invalid_model',
  ],
  [
    '400 bad params',
    400,
    routerError(400, 'max_tokens must be a positive integer', {
      metadata: { error_type: 'invalid_request' },
    }),
    'bad_response',
  ],
  ['404 no_endpoints', 404, availability(404, 'no_endpoints'), 'routing', 'no_endpoints'],
  ['404 model_deprecated', 404, availability(404, 'model_deprecated'), 'routing', 'model_deprecated'],
  ['404 privacy_restricted', 404, availability(404, 'privacy_restricted'), 'routing', 'privacy_restricted'],
  [
    '404 constraint_filtered',
    404,
    availability(404, 'constraint_filtered'),
    'routing',
    'constraint_filtered',
  ],
  ['404 free_variant_ended', 404, availability(404, 'free_variant_ended'), 'routing', 'free_variant_ended'],
  ['404 model_not_found', 404, availability(404, 'model_not_found'), 'invalid_model', 'model_not_found'],
  [
    '404 untyped no endpoints',
    404,
    routerError(404, 'No endpoints found matching your data policy'),
    'routing',
  ],
  ['404 untyped', 404, routerError(404, 'Not Found'), 'invalid_model'],
  ['408', 408, routerError(408, 'Request timed out'), 'timeout'],
  ['413', 413, routerError(413, 'Payload too large'), 'bad_response'],
  ['429 rate limit', 429, routerError(429, 'Rate limit exceeded: free-models-per-day'), 'rate_limited'],
  [
    '429 capacity_exhausted',
    429,
    availability(429, 'capacity_exhausted', true),
    'rate_limited',
    'capacity_exhausted',
  ],
  [
    '500 masked',
    500,
    routerError(500, 'Internal Server Error', { metadata: { error_type: 'server' } }),
    'server_error',
  ],
  [
    '502 provider down',
    502,
    routerError(502, 'Provider returned error', { metadata: { error_type: 'unmapped', provider_code: 'x' } }),
    'server_error',
  ],
  [
    '503 no provider',
    503,
    routerError(503, 'No allowed providers are available for the selected model.'),
    'routing',
  ],
  [
    '502 typed provider_unavailable (model down)',
    502,
    routerError(502, 'Provider returned error', { metadata: { error_type: 'provider_unavailable' } }),
    'server_error',
  ],
  [
    // The router's errors page: "503: no provider meets your routing requirements"; typed
    // provider_unavailable (as it may come with Retry-After), the message still decides.
    '503 no provider meets the routing requirements, typed provider_unavailable',
    503,
    routerError(503, 'No available model provider meets your routing requirements.', {
      metadata: { error_type: 'provider_unavailable' },
    }),
    'routing',
  ],
  [
    '503 typed server',
    503,
    routerError(503, 'Upstream failure', { metadata: { error_type: 'server' } }),
    'server_error',
  ],
  [
    '503 temporarily_unavailable',
    503,
    availability(503, 'temporarily_unavailable', true),
    'routing',
    'temporarily_unavailable',
  ],
  ['524', 524, routerError(524, 'Cloudflare timeout'), 'timeout'],
  ['529', 529, routerError(529, 'Provider overloaded'), 'server_error'],
];

const directRows: Row[] = [
  [
    '401 OpenAI bad key',
    401,
    openaiError('Incorrect API key provided: sk-abc***xyz.', 'invalid_request_error', 'invalid_api_key'),
    'auth',
    'invalid_api_key',
  ],
  [
    '401 OpenAI ip allowlist',
    401,
    openaiError('Your IP address is not authorized.', 'invalid_request_error', 'ip_not_authorized'),
    'permission',
    'ip_not_authorized',
  ],
  ['401 Kimi', 401, kimiError('invalid_authentication_error', 'Invalid Authentication'), 'auth', null],
  ['401 Kimi key', 401, kimiError('incorrect_api_key_error', 'Incorrect API key provided'), 'auth'],
  [
    '403 OpenAI country',
    403,
    openaiError(
      'Country, region, or territory not supported',
      'request_forbidden',
      'unsupported_country_region_territory',
    ),
    'permission',
  ],
  [
    '403 country by message only',
    403,
    openaiError('Country, region, or territory not supported', 'x', null),
    'permission',
  ],
  [
    '403 Kimi permission',
    403,
    kimiError('permission_denied_error', 'The API you are accessing is not open'),
    'permission',
  ],
  [
    '403 Kimi insufficient balance',
    403,
    kimiError(
      'permission_denied_error',
      'Your account is suspended due to insufficient balance, please recharge',
    ),
    'depleted',
  ],
  [
    '404 OpenAI model',
    404,
    openaiError(
      'The model `gpt-9` does not exist or you do not have access to it.',
      'invalid_request_error',
      'model_not_found',
    ),
    'invalid_model',
    'model_not_found',
  ],
  [
    '404 Kimi model',
    404,
    kimiError('resource_not_found_error', 'Not found the model kimi-x or Permission denied'),
    'invalid_model',
  ],
  [
    '400 model by message',
    400,
    openaiError('Invalid model: kimi-x', 'invalid_request_error', null),
    'invalid_model',
  ],
  [
    '400 token limit (mentions model, not about it)',
    400,
    kimiError('invalid_request_error', 'Invalid request: Your request exceeded model token limit: 8192'),
    'bad_response',
  ],
  ...([
    'project_spend_limit_exceeded',
    'organization_spend_limit_exceeded',
    'organization_usage_limit_exceeded',
  ].map((code): Row => [
    `429 ${code}`,
    429,
    openaiError('You exceeded a limit.', 'insufficient_quota', code),
    'budget_exceeded',
    code,
  ]) as Row[]),
  [
    '429 daily budget message',
    429,
    kimiError('exceeded_current_quota_error', 'Your project daily budget has been reached'),
    'budget_exceeded',
  ],
  [
    '429 credit_balance_exhausted',
    429,
    openaiError('Credit balance exhausted', 'insufficient_quota', 'credit_balance_exhausted'),
    'depleted',
  ],
  [
    '429 insufficient_quota',
    429,
    openaiError(
      'You exceeded your current quota, please check your plan and billing details.',
      'insufficient_quota',
      'insufficient_quota',
    ),
    'depleted',
  ],
  [
    '429 Kimi quota',
    429,
    kimiError('exceeded_current_quota_error', 'Your account quota is exceeded'),
    'depleted',
  ],
  [
    '429 rate_limit_exceeded',
    429,
    openaiError('Rate limit reached for requests', 'requests', 'rate_limit_exceeded'),
    'rate_limited',
  ],
  [
    '429 slow_down',
    429,
    openaiError('Please reduce your rate', 'rate_limit_error', 'slow_down'),
    'rate_limited',
  ],
  [
    '429 Kimi overloaded',
    429,
    kimiError('engine_overloaded_error', 'The engine is currently overloaded, please try again later'),
    'rate_limited',
  ],
  [
    '429 Kimi org RPM',
    429,
    kimiError(
      'rate_limit_reached_error',
      'Your account reached organization max RPM: 3, please try again after 1 seconds',
    ),
    'rate_limited',
  ],
  [
    '503 server_is_overloaded',
    503,
    openaiError('Overloaded', 'server_error', 'server_is_overloaded'),
    'rate_limited',
  ],
  ['500', 500, openaiError('The server had an error', 'server_error', null), 'server_error'],
  ['503 plain', 503, openaiError('Service unavailable', 'service_unavailable', null), 'server_error'],
];

describe.each([
  ['router', routerRows],
  ['direct', directRows],
] as const)('classifyHttpFailure (%s)', (kind: ServiceKind, rows) => {
  it.each(rows)('%s → %s', (_name, status, body, expected, code) => {
    const error = classifyHttpFailure({ kind, status, body, headers: {}, model: MODEL });
    expect(error.kind).toBe(expected);
    expect(error.http_status).toBe(status);
    expect(error.model).toBe(MODEL);
    expect(error.message.length).toBeGreaterThan(0);
    if (code !== undefined) expect(error.code).toBe(code);
  });

  it.each([
    [502, 'server_error'],
    [401, 'auth'],
    [429, 'rate_limited'],
  ] as const)('classifies a non-JSON %i by status and says so', (status, expected) => {
    const error = classifyHttpFailure({
      kind,
      status,
      body: '<html><body>Bad gateway</body></html>',
      headers: { 'content-type': 'text/html; charset=utf-8' },
      model: MODEL,
    });
    expect(error).toMatchObject({
      kind: expected,
      message: `HTTP ${status} with a non-JSON body (text/html)`,
    });
  });

  it('blames the base URL for a non-JSON 404 instead of the model', () => {
    const error = classifyHttpFailure({ kind, status: 404, body: 'Not Found', headers: {}, model: MODEL });
    expect(error.kind).toBe('endpoint_not_found');
    expect(error.message).toContain("check the service's base_url");
  });

  it.each([
    [
      'a web framework 404 (string error, sibling message)',
      { error: 'Not Found', message: 'Cannot POST /v2/chat/completions' },
    ],
    ['a bare message', { message: 'Route POST:/v2/chat/completions not found' }],
    ['an API-shaped error naming the path', { error: { message: 'Cannot POST /v1/chats' } }],
    [
      "OpenAI's invalid URL",
      {
        error: {
          message: 'Invalid URL (POST /v1/chat/completionz)',
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      },
    ],
  ])('calls %s a wrong base_url, keeping its message', (_name, body) => {
    const error = classifyHttpFailure({ kind, status: 404, body, headers: {}, model: MODEL });
    expect(error.kind).toBe('endpoint_not_found');
    expect(error.message).toMatch(
      /^(Not Found: Cannot POST|Route POST|Cannot POST|Invalid URL).*; no chat-completion endpoint answered there: check the service's base_url/,
    );
  });

  it('keeps an unknown model a model problem', () => {
    const body = {
      error: {
        message: `The model \`${MODEL}\` does not exist or you do not have access to it.`,
        type: 'invalid_request_error',
        code: 'model_not_found',
      },
    };
    expect(classifyHttpFailure({ kind, status: 404, body, headers: {}, model: MODEL }).kind).toBe(
      'invalid_model',
    );
  });
});

describe('classifyHttpFailure fields', () => {
  it('keeps type, code, trimmed message and the model the body reports', () => {
    const body = {
      error: {
        code: 404,
        message: `${'x'.repeat(3000)}`,
        metadata: { error_type: 'not_found', model: 'openai/gpt-4o-2024-08-06' },
      },
    };
    const error = classifyHttpFailure({ kind: 'router', status: 404, body, headers: {}, model: MODEL });
    expect(error).toMatchObject({ type: 'not_found', code: '404', model: 'openai/gpt-4o-2024-08-06' });
    expect(error.message.length).toBeLessThanOrEqual(500);
  });

  it('reads error_type and availability from either place', () => {
    const inMetadata = {
      error: {
        code: 404,
        message: 'gone',
        metadata: { error_type: 'not_found', availability: { code: 'no_endpoints' } },
      },
    };
    const error = classifyHttpFailure({
      kind: 'router',
      status: 404,
      body: inMetadata,
      headers: {},
      model: MODEL,
    });
    expect(error).toMatchObject({ kind: 'routing', type: 'not_found', code: 'no_endpoints' });
  });

  it('reads a string error and an empty JSON body', () => {
    expect(
      classifyHttpFailure({
        kind: 'direct',
        status: 401,
        body: { error: 'Unauthorized' },
        headers: {},
        model: MODEL,
      }),
    ).toMatchObject({
      kind: 'auth',
      message: 'Unauthorized',
    });
    expect(
      classifyHttpFailure({ kind: 'direct', status: 500, body: {}, headers: {}, model: MODEL }).message,
    ).toBe('HTTP 500 without an error message');
  });
});

describe("the router's in-flight budget", () => {
  const body = {
    error: {
      code: 402,
      message: 'In-flight budget exhausted',
      metadata: { limit_source: 'openrouter_in_flight_budget' },
    },
  };
  it('is a wait with Retry-After (rate_limited, retried), and a budget pause without', () => {
    const wait = classifyHttpFailure({
      kind: 'router',
      status: 402,
      body,
      headers: { 'retry-after': '3' },
      model: MODEL,
    });
    expect(wait).toMatchObject({ kind: 'rate_limited', code: 'openrouter_in_flight_budget' });
    const pause = classifyHttpFailure({ kind: 'router', status: 402, body, headers: {}, model: MODEL });
    expect(isBudgetCondition(pause)).toBe(true);
  });
});
