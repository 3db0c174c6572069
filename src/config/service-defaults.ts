// Per-kind defaults (max_tokens, base_url, key env) live in each service adapter (src/adapters/).

// retries: a nightly run should ride out a passing 429 or 5xx; `verify` always uses 0 (the seed's first request).
export const COMMON_DEFAULTS = { timeout_s: 60, idle_timeout_s: 30, retries: 2, concurrency: 8 } as const;
