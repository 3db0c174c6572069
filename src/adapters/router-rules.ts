import type { ErrorKind } from '../core/answer.js';
import {
  BUDGET_MESSAGE,
  byCode,
  byStatus,
  byType,
  type Facts,
  is4xx,
  MODEL_ID_MESSAGE,
  type Rule,
} from './rules.js';

/** OpenRouter availability codes (`error.availability.code`) → kind. */
const AVAILABILITY: Record<string, ErrorKind> = {
  model_not_found: 'invalid_model',
  no_endpoints: 'routing',
  model_deprecated: 'routing',
  privacy_restricted: 'routing',
  constraint_filtered: 'routing',
  free_variant_ended: 'routing',
  temporarily_unavailable: 'routing',
  capacity_exhausted: 'rate_limited',
  region_restricted: 'permission',
};

/** `error_type` (ApiErrorType) → kind; the docs say to switch on it rather than the status. */
const TYPES: Record<string, ErrorKind> = {
  authentication: 'auth',
  permission_denied: 'permission',
  payment_required: 'insufficient_credit',
  rate_limit_exceeded: 'rate_limited',
  provider_overloaded: 'rate_limited',
  // The 502 "your chosen model is down or returned an invalid response" (errors-and-debugging).
  provider_unavailable: 'server_error',
  timeout: 'timeout',
  not_found: 'invalid_model',
  server: 'server_error',
  // Request problems: DESIGN has no 'bad_request' kind, and the type is kept beside it.
  invalid_request: 'bad_response',
  invalid_prompt: 'bad_response',
  precondition_failed: 'bad_response',
  unprocessable: 'bad_response',
  payload_too_large: 'bad_response',
  context_length_exceeded: 'bad_response',
  string_too_long: 'bad_response',
  max_tokens_exceeded: 'bad_response',
  token_limit_exceeded: 'bad_response',
};

const STATUSES: Record<number, ErrorKind> = {
  400: 'bad_response',
  401: 'auth',
  402: 'insufficient_credit',
  403: 'permission',
  404: 'invalid_model',
  408: 'timeout',
  413: 'bad_response',
  422: 'bad_response',
  429: 'rate_limited',
  503: 'routing',
  524: 'timeout',
};

/**
 * What the router says when its routing rules leave no provider: the 404 "No endpoints found
 * for …" and the 503 "No available (model) provider meets your routing requirements" (its
 * errors page), "No allowed providers are available …". The message decides, not the
 * `error_type` beside it: the 503 may come typed `provider_unavailable`, which alone reads
 * as a provider that is down (a server error, retried on back-off) rather than rules to change.
 */
const NO_PROVIDER_MESSAGE =
  /no endpoints found|routing requirements|no (?:allowed |available )?(?:model )?providers? (?:are |is )?available/i;

function isModeration(f: Facts): boolean {
  const m = f.metadata;
  return (
    (m !== null && ('reasons' in m || 'flagged_input' in m)) ||
    f.type === 'content_policy_violation' ||
    f.type === 'refusal' ||
    f.type === 'moderation'
  );
}

/**
 * Service A's table, most specific first: availability codes, then what only the message
 * tells (a workspace budget and a key limit both arrive as 403), then error_type, then status.
 */
export const ROUTER_RULES: readonly Rule[] = [
  ...byCode(AVAILABILITY),
  { kind: 'insufficient_credit', when: (f) => is4xx(f) && /key limit exceeded/i.test(f.message) },
  { kind: 'budget_exceeded', when: (f) => is4xx(f) && BUDGET_MESSAGE.test(f.message) },
  { kind: 'permission', code: 'moderation', when: isModeration },
  { kind: 'invalid_model', when: (f) => is4xx(f) && MODEL_ID_MESSAGE.test(f.message) },
  { kind: 'routing', when: (f) => NO_PROVIDER_MESSAGE.test(f.message) },
  ...byType(TYPES),
  ...byStatus(STATUSES),
];
