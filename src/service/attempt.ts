import type { Dispatcher } from 'undici';
import { exchange, ExchangeTimeout, type StreamExchanged, type StreamRead } from './exchange.js';
import type { ServiceKind } from '../config/types.js';
import type { Completion } from '../record/answer.js';
import type { CaseError } from '../core/answer.js';
import type { RequestParams } from '../core/messages.js';
import { deeperThan, MAX_JSON_DEPTH } from '../util/json-depth.js';
import { parseJson } from './body.js';
import { classifyHttpFailure, headerValue } from './classify.js';
import { readErrorFields } from '../adapters/error-fields.js';
import { CACHE_STATUS_HEADER } from '../adapters/response-cache.js';
import { normalizeCompletion } from './normalize.js';
import type { Redactor } from './redact.js';
import type { ChatHttpRequest } from './request.js';
import { requestedWaitSeconds } from './retry.js';
import { isUndiciTimeout, networkMessage, redirectMessage } from './transport.js';

/** What one attempt needs besides the request itself. */
export interface AttemptContext {
  kind: ServiceKind;
  model: string;
  /** The request's parameters (its tools judge an answer's calls). */
  params: RequestParams | null;
  dispatcher: Dispatcher;
  /** Whole attempt, headers and body; 0 or less disables it. */
  timeoutMs: number;
  /** A streamed answer's longest pause between two pieces; 0 or less disables it. */
  idleTimeoutMs: number;
  maxBodyBytes: number;
  /** Epoch ms, for HTTP-date Retry-After and X-RateLimit-Reset. */
  wallNow: () => number;
  /** Scrubs the keys from all the answer holds (body, headers, error text) as it is read. */
  redactor: Redactor;
}

/**
 * One HTTP exchange, classified. `serviceSaysRetryable` is the router's `availability.retryable`;
 * `redacted`: a secret was found in the answer and replaced before anything read it.
 */
export type AttemptResult =
  | {
      status: 'ok';
      completion: Completion;
      http_status: number;
      cache_status: string | null;
      redacted: boolean;
      /** How a streamed answer came (absent: not streamed). */
      stream?: StreamRead;
    }
  | {
      status: 'error';
      error: CaseError;
      completion: Completion | null;
      http_status: number | null;
      cache_status: string | null;
      serviceSaysRetryable: boolean | null;
      redacted: boolean;
      stream?: StreamRead;
    };

type Headers = Record<string, string | string[] | undefined>;
type FailExtra = { completion?: Completion | null; serviceSaysRetryable?: boolean | null };
type Fail = (error: CaseError, extra?: FailExtra) => AttemptResult;

/**
 * Sends one request and turns whatever happens into data. Only the caller's own abort
 * is thrown: a cancelled run is not a service failure.
 */
export async function sendAttempt(
  ctx: AttemptContext,
  http: ChatHttpRequest,
  callerSignal?: AbortSignal,
): Promise<AttemptResult> {
  let httpStatus: number | null = null;
  let cacheStatus: string | null = null;
  let redacted = false;
  const fail: Fail = (error, extra = {}) => ({
    status: 'error',
    error,
    completion: extra.completion ?? null,
    http_status: httpStatus,
    cache_status: cacheStatus,
    serviceSaysRetryable: extra.serviceSaysRetryable ?? null,
    redacted,
  });
  const plain = (kind: CaseError['kind'], message: string): CaseError => ({
    kind,
    http_status: httpStatus,
    type: null,
    code: null,
    message,
    model: ctx.model,
  });

  let res: StreamExchanged;
  try {
    res = await exchange(ctx.dispatcher, http.target, {
      method: 'POST',
      headers: http.headers,
      body: http.body,
      timeoutMs: ctx.timeoutMs,
      maxBodyBytes: ctx.maxBodyBytes,
      redactor: ctx.redactor,
      ...(http.stream ? { stream: { idleTimeoutMs: ctx.idleTimeoutMs } } : {}),
      ...(callerSignal ? { signal: callerSignal } : {}),
    });
  } catch (cause) {
    // Only the caller's own abort is thrown: a cancelled run is not a service failure.
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (cause instanceof ExchangeTimeout || isUndiciTimeout(cause)) {
      return fail(plain('timeout', `no complete answer within ${ctx.timeoutMs / 1000} s`));
    }
    // The transport's error text is read here, so it is redacted here, like the answer's.
    const scrubbed = ctx.redactor.redact(networkMessage(http.url, cause));
    redacted = scrubbed.redacted;
    return fail(plain('network', scrubbed.text));
  }
  const status = res.statusCode;
  httpStatus = status;
  redacted = res.redacted;
  const headers = res.headers;
  cacheStatus = headerValue(headers, CACHE_STATUS_HEADER) ?? null;
  if (status >= 300 && status < 400) {
    return fail(plain('bad_response', redirectMessage(status, http.url, headerValue(headers, 'location'))));
  }
  if (res.body === undefined) {
    return fail(
      plain('bad_response', `response body exceeded the ${ctx.maxBodyBytes}-byte cap; reading stopped`),
    );
  }
  if (res.stream)
    return streamed(ctx, res.stream, res.body, fail, plain, {
      http_status: status,
      cache_status: cacheStatus,
      redacted,
    });
  const read = res.body.trim() === '' ? null : parseJson(res.body);
  // Bounded where the body enters: what reads it later (an error object turned back into
  // text) recurses per level. Too deep is read as text, like a body that is not JSON.
  const tooDeep = read !== null && read !== undefined && deeperThan(read);
  const parsed = tooDeep ? undefined : read;
  if (status >= 200 && status < 300) {
    if (tooDeep) {
      return fail(
        plain(
          'bad_response',
          `HTTP ${status} with a JSON body nested more than ${MAX_JSON_DEPTH} levels deep: no chat completion is; the service or a proxy in front of it sent something else (check base_url)`,
        ),
      );
    }
    if (parsed === undefined || parsed === null) {
      const type = headerValue(headers, 'content-type')?.split(';')[0] || 'no content type';
      return fail(
        plain(
          'bad_response',
          `HTTP ${status} with ${parsed === null ? 'an empty body' : `a body that is not JSON (${type})`}`,
        ),
      );
    }
    const normalized = normalizeCompletion(
      ctx.kind,
      parsed,
      ctx.model,
      status,
      ctx.params,
      undefined,
      cacheStatus,
    );
    if (normalized.error === null) {
      return {
        status: 'ok',
        completion: normalized.completion,
        http_status: status,
        cache_status: cacheStatus,
        redacted,
      };
    }
    return withWait(ctx, headers, parsed, fail, normalized.error, normalized.completion);
  }
  const error = classifyHttpFailure({
    kind: ctx.kind,
    status,
    body: parsed === undefined ? res.body : parsed,
    headers,
    model: ctx.model,
  });
  return withWait(ctx, headers, parsed, fail, error, null);
}

/** Adds the service's requested wait and retry hint to a classified failure. */
function withWait(
  ctx: AttemptContext,
  headers: Headers,
  parsed: unknown,
  fail: Fail,
  error: CaseError,
  completion: Completion | null,
): AttemptResult {
  const fields = readErrorFields(parsed) ?? readErrorFields({ error: firstChoiceError(parsed) });
  const retryAfter = requestedWaitSeconds(
    headers,
    ctx.wallNow(),
    fields?.retryAfterS ?? null,
    fields?.message ?? '',
  );
  const withRetry = retryAfter === null ? error : { ...error, retry_after_s: retryAfter };
  return fail(withRetry, { completion, serviceSaysRetryable: fields?.retryable ?? null });
}

function firstChoiceError(parsed: unknown): unknown {
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const choices = (parsed as { choices?: unknown }).choices;
  return Array.isArray(choices) ? (choices[0] as { error?: unknown } | undefined)?.error : undefined;
}

/**
 * A streamed answer, read: its assembled body judged as a non-streamed one would be (an
 * `error` event after HTTP 200 is then a body_error, its partial content kept), unless the
 * stream went wrong on its way — stopped by a limit or a malformed event (bad_response),
 * stalled past the idle time-out or the whole time-out (timeout), or ended without a
 * finish_reason or `[DONE]` (stream_interrupted) — each with what had come, and the
 * partial answer kept for the report.
 */
function streamed(
  ctx: AttemptContext,
  stream: StreamRead,
  body: string,
  fail: Fail,
  plain: (kind: CaseError['kind'], message: string) => CaseError,
  got: { http_status: number; cache_status: string | null; redacted: boolean },
): AttemptResult {
  const came = `${stream.chunks} chunk${stream.chunks === 1 ? '' : 's'}, ${stream.characters} character${stream.characters === 1 ? '' : 's'}`;
  const normalized = normalizeCompletion(
    ctx.kind,
    JSON.parse(body),
    ctx.model,
    got.http_status,
    ctx.params,
    stream,
    got.cache_status,
  );
  const partial = { completion: normalized.completion };
  const withStream = (result: AttemptResult): AttemptResult => ({ ...result, stream });
  const { problem } = stream;
  if (problem)
    return withStream(
      fail(
        plain(
          'bad_response',
          problem.kind === 'too_large'
            ? `streamed answer exceeded the ${ctx.maxBodyBytes}-byte cap after ${came}; reading stopped (lower max_tokens, or check that base_url is the service's)`
            : problem.kind === 'too_many_events'
              ? `streamed answer sent more than ${problem.events - 1} events; reading stopped (no answer needs that many: check that base_url is the service's)`
              : `event ${problem.event} of the streamed answer is not a JSON chunk; reading stopped (the service or a proxy in front of it sent something else: check base_url)`,
        ),
        partial,
      ),
    );
  if (stream.end === 'stalled')
    return withStream(
      fail(
        plain(
          'timeout',
          `stalled after ${came}: nothing more for ${ctx.idleTimeoutMs / 1000} s (idle_timeout_s)`,
        ),
        partial,
      ),
    );
  if (stream.end === 'timeout')
    return withStream(
      fail(
        plain('timeout', `no complete answer within ${ctx.timeoutMs / 1000} s (${came} had come)`),
        partial,
      ),
    );
  if (normalized.error !== null) return withStream(fail(normalized.error, partial));
  if (!stream.done && !stream.finished)
    return withStream(
      fail(
        plain(
          'stream_interrupted',
          `the stream ${stream.end === 'cut' ? 'broke off' : 'ended'} after ${came}, without a finish_reason or [DONE]`,
        ),
        partial,
      ),
    );
  return { status: 'ok', completion: normalized.completion, ...got, stream };
}
