import type { ServiceKind } from '../types.js';

/** Per-kind request defaults; max_tokens follows the services' verification calls (512 / 1024). */
export const SERVICE_DEFAULTS: Record<ServiceKind, { max_tokens: number }> = {
  router: { max_tokens: 512 },
  direct: { max_tokens: 1024 },
};

export const COMMON_DEFAULTS = { timeout_s: 60, retries: 0, concurrency: 8 } as const;
