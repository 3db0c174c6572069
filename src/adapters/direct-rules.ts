import type { ErrorKind } from '../core/answer.js';
import {
  BALANCE_MESSAGE,
  BUDGET_MESSAGE,
  byCode,
  byStatus,
  byType,
  is4xx,
  MODEL_ID_MESSAGE,
  type Rule,
} from './rules.js';

/** OpenAI `error.code` values (Moonshot sends none). */
const CODES: Record<string, ErrorKind> = {
  ip_not_authorized: 'permission',
  unsupported_country_region_territory: 'permission',
  project_spend_limit_exceeded: 'budget_exceeded',
  organization_spend_limit_exceeded: 'budget_exceeded',
  organization_usage_limit_exceeded: 'budget_exceeded',
  credit_balance_exhausted: 'depleted',
  insufficient_quota: 'depleted',
  model_not_found: 'invalid_model',
  invalid_api_key: 'auth',
  rate_limit_exceeded: 'rate_limited',
  slow_down: 'rate_limited',
  // A traffic condition, not a fault of the service: wait and retry.
  server_is_overloaded: 'rate_limited',
};

/** `error.type` values of OpenAI and Moonshot/Kimi. */
const TYPES: Record<string, ErrorKind> = {
  insufficient_quota: 'depleted',
  exceeded_current_quota_error: 'depleted',
  invalid_authentication_error: 'auth',
  incorrect_api_key_error: 'auth',
  authentication_error: 'auth',
  permission_denied_error: 'permission',
  permission_error: 'permission',
  engine_overloaded_error: 'rate_limited',
  rate_limit_reached_error: 'rate_limited',
  rate_limit_error: 'rate_limited',
  overloaded_error: 'rate_limited',
  not_found_error: 'invalid_model',
  server_error: 'server_error',
  api_error: 'server_error',
};

const STATUSES: Record<number, ErrorKind> = {
  400: 'bad_response',
  401: 'auth',
  402: 'depleted',
  403: 'permission',
  404: 'invalid_model',
  408: 'timeout',
  429: 'rate_limited',
};

/**
 * Service B's table. Codes and types win over the status because the two platforms
 * disagree on statuses (Kimi answers an exhausted balance with 403, OpenAI with 429).
 */
export const DIRECT_RULES: readonly Rule[] = [
  ...byCode(CODES),
  { kind: 'budget_exceeded', when: (f) => is4xx(f) && BUDGET_MESSAGE.test(f.message) },
  { kind: 'depleted', when: (f) => is4xx(f) && BALANCE_MESSAGE.test(f.message) },
  { kind: 'permission', when: (f) => is4xx(f) && /country, region,? or territory/i.test(f.message) },
  { kind: 'invalid_model', when: (f) => is4xx(f) && MODEL_ID_MESSAGE.test(f.message) },
  // Kimi's 404 type covers any resource; it is about the model only when it says so.
  { kind: 'invalid_model', when: (f) => f.type === 'resource_not_found_error' && /model/i.test(f.message) },
  ...byType(TYPES),
  ...byStatus(STATUSES),
];
