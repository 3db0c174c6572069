import type { CaseError } from '../core/answer.js';
import { type HeaderMap, headerValue } from './classify.js';

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 30_000;
/** Past this much total waiting for one call we give up: a nightly run must end. */
export const MAX_TOTAL_WAIT_MS = 120_000;

/**
 * Router error types / codes inside a 200 body that describe a passing condition. The
 * router emits most upstream failures this way, so retrying them matters as much as
 * retrying a 429; request problems (invalid_request, context_length_exceeded…) are not.
 */
const TRANSIENT_BODY_TYPES = new Set([
  'rate_limit_exceeded',
  'provider_overloaded',
  'provider_unavailable',
  'timeout',
  'server',
  'overloaded_error',
  'rate_limit_error',
  'server_error',
  'engine_overloaded_error',
]);
const TRANSIENT_BODY_CODES = new Set(['408', '429', '500', '502', '503', '504', '524', '529']);

/**
 * Whether another attempt could succeed. Budget, credit, auth, permission and model
 * errors never are; routing only when the service says so (`availability.retryable`).
 * A service that says `retryable: false` is believed for every kind.
 */
export function isRetryable(error: CaseError, serviceSaysRetryable: boolean | null = null): boolean {
  if (serviceSaysRetryable === false) return false;
  switch (error.kind) {
    case 'rate_limited':
    case 'server_error':
    case 'timeout':
    case 'network':
      return true;
    case 'routing':
      // The router's 503 "no available provider meets your routing requirements" may come
      // with Retry-After (documented for 429 and 503): a provider may be back by then.
      return (
        serviceSaysRetryable === true ||
        error.code === 'temporarily_unavailable' ||
        (error.http_status === 503 && error.retry_after_s != null)
      );
    case 'body_error':
      return (
        (error.type !== null && TRANSIENT_BODY_TYPES.has(error.type)) ||
        (error.code !== null && TRANSIENT_BODY_CODES.has(error.code))
      );
    default:
      return false;
  }
}

/** `Retry-After` as seconds from now: delta-seconds or an HTTP-date (past dates → 0). */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (text === '') return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  // Only a date-looking value; Date.parse would also accept bare numbers like "-1".
  if (!/[a-z]/i.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, (at - nowMs) / 1000);
}

/**
 * `X-RateLimit-Reset` as seconds from now. The router sends a ms epoch; a seconds epoch
 * (other proxies) and plain delta-seconds are recognised by magnitude.
 */
export function parseRateLimitReset(value: string | undefined, nowMs: number): number | null {
  if (value === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return null;
  const n = Number(value);
  if (n >= 1e12) return Math.max(0, (n - nowMs) / 1000);
  if (n >= 1e9) return Math.max(0, n - nowMs / 1000);
  return n;
}

/** Never wait longer than this for one attempt, whatever a service says (the total-wait budget still applies). */
const MAX_REQUESTED_WAIT_S = 300;

/**
 * OpenAI-style durations (`x-ratelimit-reset-requests: 1s`, `6m0s`, `20ms`, `1h2m3.5s`) as
 * seconds; null for anything else.
 */
export function parseDuration(value: string | undefined): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  const m =
    /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/.exec(text);
  if (!m || text === '') return null;
  const [, h, min, sec, ms] = m.map((x) => (x === undefined ? 0 : Number(x))) as number[];
  return h! * 3600 + min! * 60 + sec! + ms! / 1000;
}

/** "Please try again in 20s" / "in 1.5s" / "in 250ms" / "in 6m0s" in an error message, as seconds. */
function waitInMessage(message: string): number | null {
  const m = /\btry again in (\d+(?:\.\d+)?(?:ms|s|m(?:\d+(?:\.\d+)?s)?|h))\b/i.exec(message);
  return m ? parseDuration(m[1]) : null;
}

/**
 * How long the service asked us to wait: `Retry-After` when sent (the explicit answer);
 * else the longest of OpenAI's `x-ratelimit-reset-requests` / `-tokens` (either limit may be
 * the one hit) and "try again in Ns" in the message; else the router's `X-RateLimit-Reset`;
 * else the availability hint. Capped at MAX_REQUESTED_WAIT_S.
 */
export function requestedWaitSeconds(
  headers: HeaderMap,
  nowMs: number,
  availabilityRetryAfterS: number | null = null,
  message = '',
): number | null {
  const openai = [
    parseDuration(headerValue(headers, 'x-ratelimit-reset-requests')),
    parseDuration(headerValue(headers, 'x-ratelimit-reset-tokens')),
    waitInMessage(message),
  ].filter((s): s is number => s !== null);
  const wait =
    parseRetryAfter(headerValue(headers, 'retry-after'), nowMs) ??
    (openai.length ? Math.max(...openai) : null) ??
    parseRateLimitReset(headerValue(headers, 'x-ratelimit-reset'), nowMs) ??
    availabilityRetryAfterS;
  return wait === null ? null : Math.min(wait, MAX_REQUESTED_WAIT_S);
}

/** Exponential backoff with full jitter: uniform in [0, min(cap, base·2^(attempt-1))). */
export function backoffDelay(
  attempt: number,
  opts: { baseMs: number; capMs: number; random: () => number },
): number {
  const ceiling = Math.min(opts.capMs, opts.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(opts.random() * ceiling);
}

/** The wait before the next attempt: what the service asked for, else backoff. */
export function nextWaitMs(
  attempt: number,
  retryAfterS: number | null | undefined,
  random: () => number,
): number {
  if (retryAfterS !== null && retryAfterS !== undefined) return Math.ceil(retryAfterS * 1000);
  return backoffDelay(attempt, { baseMs: BACKOFF_BASE_MS, capMs: BACKOFF_CAP_MS, random });
}

/** The decision after a failed attempt: wait and go again, or stop with this error. */
export type RetryPlan = { retry: true; waitMs: number } | { retry: false; error: CaseError };

/**
 * Decides whether to retry: retries left, a retryable kind, and a wait that fits the
 * remaining total-wait budget. A wait past the budget stops at once (noted in the message)
 * rather than sleeping and then giving up. A streamed answer that already delivered some
 * of its content is never sent again: the answer an application would have shown is the
 * one judged (and it was paid for).
 */
export function planRetry(input: {
  attempt: number;
  retries: number;
  error: CaseError;
  serviceSaysRetryable: boolean | null;
  waitedMs: number;
  maxTotalWaitMs: number;
  random: () => number;
  /** Characters of the answer a stream delivered before it failed (0: none, or not streamed). */
  delivered?: number;
}): RetryPlan {
  const { error } = input;
  if ((input.delivered ?? 0) > 0) return { retry: false, error };
  if (input.attempt > input.retries || !isRetryable(error, input.serviceSaysRetryable))
    return { retry: false, error };
  const waitMs = nextWaitMs(input.attempt, error.retry_after_s, input.random);
  if (input.waitedMs + waitMs <= input.maxTotalWaitMs) return { retry: true, waitMs };
  const note =
    `not retried: waiting ${Math.ceil(waitMs / 1000)} s more would pass the ` +
    `${input.maxTotalWaitMs / 1000} s retry budget`;
  return { retry: false, error: { ...error, message: `${error.message} (${note})` } };
}
