import type { FirstRequest } from './types.js';

/**
 * The seed's verification call to a service (its §8): a 60 s client time-out and no retry
 * for either service, with the max_tokens the kind's call uses (512 for Service A, 1024 for B).
 */
export function firstRequest(max_tokens: number): FirstRequest {
  return { max_tokens, timeout_s: 60, retries: 0 };
}
