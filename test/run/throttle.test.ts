import { describe, expect, it } from 'vitest';
import { createThrottle } from '../../src/run/throttle.js';
import type { CallOutcome } from '../../src/service/types.js';
import type { CaseError } from '../../src/core/answer.js';

const rateLimited: CaseError = {
  kind: 'rate_limited',
  http_status: 429,
  type: null,
  code: null,
  message: 'slow down',
  model: 'm',
};

function ok(attemptErrors: CaseError[] = []): CallOutcome {
  return {
    status: 'ok',
    completion: { id: 'x', model: 'm', content: 'hi', finish_reason: 'stop', usage: null },
    http_status: 200,
    latency_ms: 1,
    wait_ms: 0,
    attempts: attemptErrors.length + 1,
    attempt_errors: attemptErrors,
    redacted: false,
  };
}

function failed(error: CaseError): CallOutcome {
  return {
    status: 'error',
    error,
    completion: null,
    http_status: error.http_status,
    latency_ms: 1,
    wait_ms: 0,
    attempts: 1,
    attempt_errors: [],
    redacted: false,
  };
}

describe('createThrottle', () => {
  it('halves concurrency on a 429, down to 1, whether retried into success or not', () => {
    const throttle = createThrottle(16);
    expect(throttle.observe(ok([rateLimited]))).toBe(8);
    expect(throttle.observe(failed(rateLimited))).toBe(4);
    expect(throttle.observe(failed(rateLimited))).toBe(2);
    expect(throttle.observe(failed(rateLimited))).toBe(1);
    expect(throttle.observe(failed(rateLimited))).toBeNull();
    expect(throttle.current).toBe(1);
  });

  it('adds one back after as many clean answers as the current concurrency, up to the maximum', () => {
    const throttle = createThrottle(4);
    throttle.observe(failed(rateLimited)); // 2
    expect(throttle.observe(ok())).toBeNull();
    expect(throttle.observe(ok())).toBe(3);
    for (let i = 0; i < 2; i++) expect(throttle.observe(ok())).toBeNull();
    expect(throttle.observe(ok())).toBe(4);
    for (let i = 0; i < 10; i++) expect(throttle.observe(ok())).toBeNull();
    expect(throttle.current).toBe(4);
  });

  it('ignores other failures', () => {
    const throttle = createThrottle(8);
    expect(throttle.observe(failed({ ...rateLimited, kind: 'server_error', http_status: 502 }))).toBeNull();
    expect(throttle.current).toBe(8);
  });
});
