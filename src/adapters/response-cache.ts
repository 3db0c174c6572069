/**
 * The router's response cache (its response-caching guide): opted into with the
 * `X-OpenRouter-Cache` header (with `-TTL` and the like beside it); an answer from it says
 * `X-OpenRouter-Cache-Status: HIT` and reports every billable usage counter as 0. A cached
 * answer is an earlier one returned verbatim, whatever the model would say tonight.
 */

/** True for a header that opts into (or tunes) the router's response cache, in any case. */
export function isResponseCacheHeader(name: string): boolean {
  const lower = name.trim().toLowerCase();
  return lower.startsWith('x-openrouter-cache');
}

/** The answer's header saying whether it came from the cache (`HIT` or `MISS`). */
export const CACHE_STATUS_HEADER = 'x-openrouter-cache-status';
