import type { ServiceKind } from '../types.js';

/** Per-kind request defaults; max_tokens follows the services' verification calls (512 / 1024). */
export const SERVICE_DEFAULTS: Record<ServiceKind, { max_tokens: number }> = {
  router: { max_tokens: 512 },
  direct: { max_tokens: 1024 },
};

// retries: a nightly run should ride out a passing 429 or 5xx; `verify` always uses 0 (the seed's first request).
export const COMMON_DEFAULTS = { timeout_s: 60, retries: 2, concurrency: 8 } as const;
