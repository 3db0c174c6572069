import pLimit, { type LimitFunction } from 'p-limit';
import type { CallOutcome } from '../service/types.js';

/** A service's request limiter that backs off when the service says "too many requests". */
export interface Throttle {
  readonly limit: LimitFunction;
  /** Requests allowed in flight now (≤ the configured maximum). */
  readonly current: number;
  /** Feed every finished call; returns the new concurrency when it changed. */
  observe(outcome: CallOutcome): number | null;
}

/**
 * Additive-increase, multiplicative-decrease: a 429 (on any attempt) halves the
 * concurrency, and a run of clean answers as long as the current concurrency adds one
 * back, up to the configured maximum. Hammering a rate-limited service only buys more 429s.
 */
export function createThrottle(max: number): Throttle {
  const limit = pLimit(max);
  let clean = 0;
  return {
    limit,
    get current() {
      return limit.concurrency;
    },
    observe(outcome) {
      const throttled =
        outcome.attempt_errors.some((e) => e.kind === 'rate_limited') ||
        (outcome.status === 'error' && outcome.error.kind === 'rate_limited');
      if (throttled) {
        clean = 0;
        const lowered = Math.max(1, Math.floor(limit.concurrency / 2));
        if (lowered === limit.concurrency) return null;
        limit.concurrency = lowered;
        return lowered;
      }
      if (outcome.status !== 'ok' || limit.concurrency >= max) return null;
      if (++clean < limit.concurrency) return null;
      clean = 0;
      limit.concurrency += 1;
      return limit.concurrency;
    },
  };
}
