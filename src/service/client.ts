import type { Dispatcher } from 'undici';
import type { ServiceConfig } from '../config/types.js';
import type { CallOutcome, CompletionRequest, ServiceClient } from './types.js';
import type { CaseError } from '../core/answer.js';
import { sendAttempt } from './attempt.js';
import { DEFAULT_MAX_BODY_BYTES } from './body.js';
import { acquirePool } from './pools.js';
import { checkBaseUrl } from './preflight.js';
import { createRedactor, type Redactor } from './redact.js';
import { chatRequestBuilder } from './request.js';
import { MAX_TOTAL_WAIT_MS, planRetry } from './retry.js';
import { sleep as abortableSleep } from '../util/abort.js';
import { COMMON_DEFAULTS } from '../config/service-defaults.js';

export interface ServiceClientOptions {
  service: ServiceConfig;
  apiKey: string;
  /**
   * Replaces secrets in every answer as it is read; default: this service's key. A run
   * passes one over all its services' keys, so no answer can carry another service's key either.
   */
  redactor?: Redactor;
  /** Injected for tests; default: the shared keep-alive pool of the base URL's origin. */
  dispatcher?: Dispatcher;
  /**
   * Headers to add to one request, decided by the caller: the CLI passes the simulator's
   * directive headers here (for loopback base URLs only); the client knows nothing of them.
   */
  requestHeaders?: (service: ServiceConfig, request: CompletionRequest) => Record<string, string>;
  /** Cap on a response body; past it the read stops and the attempt is a bad_response. Default 8 MiB. */
  maxBodyBytes?: number;
  /** Waits between attempts; injected so retry tests need not wait. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Monotonic clock (ms) for latency; default performance.now. */
  now?: () => number;
  /** Wall clock (epoch ms) for HTTP-date Retry-After and X-RateLimit-Reset; default Date.now. */
  wallNow?: () => number;
  /** Jitter source for backoff; default Math.random. */
  random?: () => number;
  /** Total waiting allowed across one call's retries; default 120 s. */
  maxTotalWaitMs?: number;
}

/**
 * A client for one configured service: builds the request, retries what may pass, and
 * returns every outcome as data. Throws PreflightError for an unusable base_url, and
 * rethrows only the caller's own abort.
 */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const { service, apiKey } = options;
  const origin = checkBaseUrl(service).origin;
  const lease = options.dispatcher ? null : acquirePool(origin);
  const dispatcher = options.dispatcher ?? lease!.dispatcher;
  // One listener on a signal many requests share (util/abort.ts), not one per waiting retry.
  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? (() => performance.now());
  const random = options.random ?? Math.random;
  const maxTotalWaitMs = options.maxTotalWaitMs ?? MAX_TOTAL_WAIT_MS;
  const redactor = options.redactor ?? createRedactor([apiKey]);
  const build = chatRequestBuilder(service, apiKey);
  const requestHeaders = options.requestHeaders;

  async function complete(request: CompletionRequest): Promise<CallOutcome> {
    const http = build(request, requestHeaders?.(service, request));
    const ctx = {
      kind: service.kind,
      model: request.model,
      // As sent: the answer is read against what the service was asked (its tools, its token cap).
      params: http.params,
      dispatcher,
      timeoutMs: service.timeout_s * 1000,
      idleTimeoutMs: (service.idle_timeout_s ?? COMMON_DEFAULTS.idle_timeout_s) * 1000,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      wallNow: options.wallNow ?? Date.now,
      redactor,
    };
    // Errors of the attempts before the last one; the last one's error is the outcome's.
    const attemptErrors: CaseError[] = [];
    let waitMs = 0;
    // An earlier attempt's error is kept too: a secret found in any attempt marks the outcome.
    let redacted = false;
    for (let attempt = 1; ; attempt += 1) {
      const started = now();
      const result = await sendAttempt(ctx, http, request.signal);
      const latencyMs = Math.round(now() - started);
      redacted ||= result.redacted;
      const common = {
        latency_ms: latencyMs,
        wait_ms: waitMs,
        attempts: attempt,
        attempt_errors: attemptErrors,
        redacted,
        ...(result.stream ? { stream: result.stream } : {}),
      };
      if (result.status === 'ok') {
        return {
          status: 'ok',
          completion: result.completion,
          http_status: result.http_status,
          cache_status: result.cache_status,
          ...common,
        };
      }
      const plan = planRetry({
        delivered: result.stream?.characters ?? 0,
        attempt,
        retries: service.retries,
        error: result.error,
        serviceSaysRetryable: result.serviceSaysRetryable,
        waitedMs: waitMs,
        maxTotalWaitMs,
        random,
      });
      if (!plan.retry) {
        return {
          status: 'error',
          error: plan.error,
          completion: result.completion,
          http_status: result.http_status,
          cache_status: result.cache_status,
          ...common,
        };
      }
      attemptErrors.push(result.error);
      await sleep(plan.waitMs, request.signal);
      waitMs += plan.waitMs;
    }
  }

  return {
    service,
    complete,
    close: async () => lease?.release(),
  };
}
