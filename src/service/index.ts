export type { AttemptResult } from './attempt.js';
export { DEFAULT_MAX_BODY_BYTES } from './body.js';
export { classifyHttpFailure, type HttpFailure, headerValue } from './classify.js';
export { createServiceClient, type ServiceClientOptions } from './client.js';
export { type Normalized, normalizeCompletion, readUsage } from './normalize.js';
export { closeAllPools } from './pools.js';
export { checkBaseUrl, isLoopbackHost, resolveApiKey } from './preflight.js';
export { createRedactor, REDACTED, type Redactor } from './redact.js';
export { buildChatBody, buildChatRequest, type ChatHttpRequest, chatCompletionsUrl } from './request.js';
export {
  BACKOFF_BASE_MS,
  BACKOFF_CAP_MS,
  backoffDelay,
  isRetryable,
  MAX_TOTAL_WAIT_MS,
  nextWaitMs,
  parseRateLimitReset,
  parseRetryAfter,
  planRetry,
  type RetryPlan,
  requestedWaitSeconds,
} from './retry.js';
