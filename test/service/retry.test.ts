import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  isRetryable,
  nextWaitMs,
  parseRateLimitReset,
  parseRetryAfter,
  planRetry,
  parseDuration,
  requestedWaitSeconds,
} from '../../src/service/retry.js';
import type { CaseError, ErrorKind } from '../../src/core/answer.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const err = (kind: ErrorKind, extra: Partial<CaseError> = {}): CaseError => ({
  kind,
  http_status: null,
  type: null,
  code: null,
  message: 'x',
  model: 'm',
  ...extra,
});

describe('parseRetryAfter', () => {
  it.each([
    ['5', 5],
    [' 0 ', 0],
    ['1.5', 1.5],
    ['Sun, 01 Mar 2026 12:00:30 GMT', 30],
    ['Sun, 01 Mar 2026 11:00:00 GMT', 0],
    ['', null],
    ['-1', null],
    ['soon', null],
    [undefined, null],
  ])('%s → %s', (value, expected) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });
});

describe('parseRateLimitReset', () => {
  it.each([
    [String(NOW + 4000), 4],
    [String(NOW / 1000 + 10), 10],
    ['7', 7],
    [String(NOW - 5000), 0],
    ['abc', null],
  ])('%s → %s', (value, expected) => {
    expect(parseRateLimitReset(value, NOW)).toBe(expected);
  });

  it('prefers Retry-After, then X-RateLimit-Reset, then the body hint', () => {
    expect(
      requestedWaitSeconds({ 'Retry-After': '3', 'x-ratelimit-reset': String(NOW + 9000) }, NOW, 20),
    ).toBe(3);
    expect(requestedWaitSeconds({ 'x-ratelimit-reset': String(NOW + 9000) }, NOW, 20)).toBe(9);
    expect(requestedWaitSeconds({}, NOW, 20)).toBe(20);
    expect(requestedWaitSeconds({}, NOW)).toBeNull();
  });

  it("honours OpenAI's reset headers and 'try again in Ns', the longest stated wait", () => {
    expect(
      requestedWaitSeconds({ 'x-ratelimit-reset-requests': '1s' }, NOW, null, 'Please try again in 20s.'),
    ).toBe(20);
    expect(
      requestedWaitSeconds(
        { 'x-ratelimit-reset-requests': '6m0s', 'x-ratelimit-reset-tokens': '250ms' },
        NOW,
      ),
    ).toBe(300);
    expect(requestedWaitSeconds({}, NOW, null, 'Rate limit reached … Please try again in 1.5s.')).toBe(1.5);
    expect(requestedWaitSeconds({}, NOW, null, 'try again in 250ms')).toBe(0.25);
    // Retry-After is the explicit answer when sent; anything past 300 s is capped.
    expect(requestedWaitSeconds({ 'retry-after': '2', 'x-ratelimit-reset-tokens': '9s' }, NOW)).toBe(2);
    expect(requestedWaitSeconds({ 'retry-after': '86400' }, NOW)).toBe(300);
  });

  it.each([
    ['1s', 1],
    ['6m0s', 360],
    ['20ms', 0.02],
    ['1h2m3.5s', 3723.5],
    ['soon', null],
    ['', null],
  ])('parses the duration %j as %j seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });
});

describe('backoffDelay', () => {
  it.each([
    [1, 500],
    [2, 1000],
    [3, 2000],
    [7, 30_000],
    [20, 30_000],
  ])('attempt %i has a ceiling of %i ms (full jitter below it)', (attempt, ceiling) => {
    const opts = { baseMs: 500, capMs: 30_000 };
    expect(backoffDelay(attempt, { ...opts, random: () => 0 })).toBe(0);
    expect(backoffDelay(attempt, { ...opts, random: () => 0.5 })).toBe(ceiling / 2);
    expect(backoffDelay(attempt, { ...opts, random: () => 0.999999 })).toBe(ceiling - 1);
  });

  it('uses the service wait when given, backoff otherwise', () => {
    expect(nextWaitMs(1, 2.5, () => 0.9)).toBe(2500);
    expect(nextWaitMs(2, null, () => 0.5)).toBe(500);
  });
});

describe('isRetryable', () => {
  it.each([
    ['rate_limited', true],
    ['server_error', true],
    ['timeout', true],
    ['network', true],
    ['auth', false],
    ['permission', false],
    ['invalid_model', false],
    ['insufficient_credit', false],
    ['budget_exceeded', false],
    ['depleted', false],
    ['routing', false],
    ['empty_choices', false],
    ['empty_content', false],
    ['bad_response', false],
    ['body_error', false],
  ] as const)('%s → %s', (kind, expected) => {
    expect(isRetryable(err(kind))).toBe(expected);
  });

  it('retries routing only when the service says so', () => {
    expect(isRetryable(err('routing', { code: 'no_endpoints' }), true)).toBe(true);
    expect(isRetryable(err('routing', { code: 'temporarily_unavailable' }))).toBe(true);
    expect(isRetryable(err('rate_limited'), false)).toBe(false);
  });

  it('retries transient body errors only', () => {
    expect(isRetryable(err('body_error', { type: 'provider_overloaded' }))).toBe(true);
    expect(isRetryable(err('body_error', { code: '502' }))).toBe(true);
    expect(isRetryable(err('body_error', { type: 'context_length_exceeded', code: '400' }))).toBe(false);
  });
});

describe('planRetry', () => {
  const base = {
    attempt: 1,
    retries: 2,
    serviceSaysRetryable: null,
    waitedMs: 0,
    maxTotalWaitMs: 10_000,
    random: () => 0.5,
  };

  it.each([
    [
      'retryable with retries left',
      { error: err('rate_limited', { retry_after_s: 2 }) },
      { retry: true, waitMs: 2000 },
    ],
    ['no retries left', { attempt: 3, error: err('rate_limited') }, { retry: false }],
    ['not retryable', { error: err('auth') }, { retry: false }],
    ['backoff without a service wait', { attempt: 2, error: err('network') }, { retry: true, waitMs: 500 }],
  ])('%s', (_name, input, expected) => {
    expect(planRetry({ ...base, ...input })).toMatchObject(expected);
  });

  it('stops when the wait would pass the budget and says why', () => {
    const plan = planRetry({ ...base, waitedMs: 9000, error: err('rate_limited', { retry_after_s: 5 }) });
    expect(plan.retry).toBe(false);
    if (!plan.retry) expect(plan.error.message).toMatch(/retry budget/);
  });
});

describe('waits the router asks for', () => {
  const routing = (retry_after_s: number | null) => ({
    kind: 'routing' as const,
    http_status: 503,
    type: null,
    code: null,
    message: 'No available provider meets your routing requirements',
    model: null,
    retry_after_s,
  });
  it('retries a 503 routing failure that says when to come back, not one that does not', () => {
    expect(isRetryable(routing(5))).toBe(true);
    expect(isRetryable(routing(null))).toBe(false);
  });
});
