import { EventEmitter } from 'node:events';
import type { Dispatcher } from 'undici';
import { onAbort } from '../util/abort.js';
import { redactHeaders, type Redactor } from './redact.js';
import { type StreamFacts, type StreamProblem, StreamReader } from './stream-read.js';

type ResponseHeaders = Record<string, string | string[] | undefined>;

/**
 * One HTTP exchange's answer: the body read whole, or how far it got past the cap. Headers
 * and body are already redacted; `redacted` says whether a secret was found in them.
 */
type Exchanged =
  | {
      statusCode: number;
      headers: ResponseHeaders;
      redacted: boolean;
      body: string;
      tooLarge?: undefined;
    }
  | { statusCode: number; headers: ResponseHeaders; redacted: boolean; body?: undefined; tooLarge: number };

/** A streamed exchange: the answer as a non-streamed body would be (assembled, then redacted), and how it streamed. */
export type StreamExchanged = Exchanged & { stream?: StreamRead };

/**
 * How a streamed answer's reading ended: its body ended (`ended`), nothing came for longer
 * than the idle time-out (`stalled`), the whole time-out passed (`timeout`), the connection
 * broke (`cut`), or a limit or a malformed event stopped it (`stopped`, see the reader).
 */
type StreamEnd = 'ended' | 'stalled' | 'timeout' | 'cut' | 'stopped';

/** A streamed answer's reading: its facts over time, how it ended, and why it stopped early. */
export interface StreamRead extends StreamFacts {
  end: StreamEnd;
  problem: StreamProblem | null;
}

/** The exchange took longer than its time-out, headers and body together. */
export class ExchangeTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no complete answer within ${timeoutMs / 1000} s`);
  }
}

export interface ExchangeOptions {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Whole exchange, headers and body; 0 or less disables it. */
  timeoutMs: number;
  /** Stop reading (and drop the connection) past this many body bytes. */
  maxBodyBytes: number;
  /** The caller's abort: the exchange rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Replaces the secrets in the answer the moment it is read, before anything parses,
   * checks or quotes it: nothing downstream of the exchange can hold a key.
   */
  redactor: Redactor;
  /**
   * The request asked for a stream: an event-stream answer is read as it comes (see
   * StreamReader), with `idleTimeoutMs` the longest pause allowed between two pieces.
   */
  stream?: { idleTimeoutMs: number; maxEvents?: number };
}

/**
 * Sends one request through `dispatcher` with undici's public `request()` and reads the
 * whole answer, redacted. Rejects with ExchangeTimeout, the caller's abort reason, or undici's
 * network error. Never follows a redirect: `request()` has no redirect handling unless a
 * redirect interceptor is composed in, and none is.
 *
 * The body cap is counted here rather than with the pool's `maxResponseSize`: one pool
 * serves calls with different caps (a chat answer, the model catalog), an injected
 * dispatcher has its own options, and the count says how far past the cap the body went.
 */
export async function exchange(
  dispatcher: Dispatcher,
  url: string | URL,
  options: ExchangeOptions,
): Promise<StreamExchanged> {
  const { signal } = options;
  if (signal?.aborted) throw signal.reason;
  // A caller sending many requests to one URL parses it once (chatRequestBuilder).
  const parsed = typeof url === 'string' ? new URL(url) : url;
  // One emitter covers the time-out and the caller's abort, over headers and body. undici's
  // request() takes an EventEmitter as its signal; an AbortSignal there cost 15-20 % more CPU
  // at 100,000 instant answers (undici's per-request abort-listener bookkeeping).
  const abort = new EventEmitter();
  let timedOut = false;
  const timer =
    options.timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          abort.emit('abort');
        }, timerMs(options.timeoutMs))
      : undefined;
  // The caller's signal is often one for every request in flight: one listener on it fans
  // out (util/abort.ts) instead of one listener per exchange.
  const releaseCaller = signal ? onAbort(signal, () => void abort.emit('abort')) : undefined;
  const started = performance.now();
  try {
    const response = await dispatcher.request({
      origin: parsed.origin,
      path: `${parsed.pathname}${parsed.search}`,
      method: options.method,
      headers: options.headers,
      body: options.body ?? null,
      signal: abort,
    });
    const statusCode = response.statusCode;
    const { headers, redacted } = redactHeaders(options.redactor, response.headers as ResponseHeaders);
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > options.maxBodyBytes) {
      abandon(response.body);
      return { statusCode, headers, redacted, tooLarge: declared };
    }
    if (options.stream && statusCode < 300 && isEventStream(headers)) {
      const reader = new StreamReader(
        {
          maxBytes: options.maxBodyBytes,
          ...(options.stream.maxEvents ? { maxEvents: options.stream.maxEvents } : {}),
        },
        () => Math.round(performance.now() - started),
      );
      const end = await readStream(response.body, reader, options.stream.idleTimeoutMs, () => timedOut);
      if (signal?.aborted) throw signal.reason;
      const body = options.redactor.redact(JSON.stringify(reader.body()));
      return {
        statusCode,
        headers,
        redacted: redacted || body.redacted,
        body: body.text,
        stream: { ...reader.facts, end, problem: reader.stopped },
      };
    }
    const read = await readCapped(response.body, options.maxBodyBytes);
    if (typeof read !== 'string') return { statusCode, headers, redacted, tooLarge: read };
    const body = options.redactor.redact(read);
    return { statusCode, headers, redacted: redacted || body.redacted, body: body.text };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (timedOut) throw new ExchangeTimeout(options.timeoutMs);
    throw error;
  } finally {
    clearTimeout(timer);
    releaseCaller?.();
  }
}

/**
 * Reads a whole body as text, or stops past `cap` bytes and answers how many had come.
 * Stream events rather than `for await`: an async iterator per answer was measurably
 * slower at 100,000 instant answers.
 */
function readCapped(body: Dispatcher.ResponseData['body'], cap: number): Promise<string | number> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    body.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > cap) {
        abandon(body);
        resolve(bytes);
      } else chunks.push(chunk);
    });
    body.on('end', () =>
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')),
    );
    body.on('error', reject);
  });
}

/** An answer sent as server-sent events (`text/event-stream`). */
function isEventStream(headers: ResponseHeaders): boolean {
  const type = headers['content-type'];
  return typeof type === 'string' && type.toLowerCase().startsWith('text/event-stream');
}

/**
 * Feeds a streamed body to its reader as it comes, and says how it ended. An idle timer,
 * started by the first data event and restarted by each one after it, stops a stream that
 * stalls between chunks: keep-alive comments do not restart it (the router sends them every
 * second while its provider stalls), and the wait for the first token is the whole
 * time-out's (a slow first token is measured, not a stall). The whole time-out and a broken
 * connection end it too — what came before is kept either way.
 */
function readStream(
  body: Dispatcher.ResponseData['body'],
  reader: StreamReader,
  idleTimeoutMs: number,
  timedOut: () => boolean,
): Promise<StreamEnd> {
  return new Promise((resolve) => {
    let idle: NodeJS.Timeout | undefined;
    const finish = (end: StreamEnd) => {
      clearTimeout(idle);
      resolve(end);
    };
    const arm = () => {
      if (idleTimeoutMs <= 0) return;
      clearTimeout(idle);
      idle = setTimeout(() => {
        abandon(body);
        finish('stalled');
      }, timerMs(idleTimeoutMs));
    };
    body.on('data', (piece: Buffer) => {
      const events = reader.facts.chunks;
      if (reader.feed(piece)) {
        if (reader.facts.chunks > events) arm();
      } else {
        abandon(body);
        finish('stopped');
      }
    });
    body.on('end', () => finish('ended'));
    body.on('error', () => finish(timedOut() ? 'timeout' : 'cut'));
  });
}

/**
 * Stops reading a body and drops its connection, so the rest is never read. Destroying
 * undici's body stream emits its abort error; nobody reads the body after this, so that
 * error is expected and swallowed rather than left to crash the process.
 */
function abandon(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

/**
 * A time-out Node's timers accept: whole milliseconds below 2^31 (a longer one fires
 * after 1 ms), so `timeout_s: 0.0015` does not throw and `timeout_s: 1e12` does not fire at once.
 */
export function timerMs(ms: number): number {
  return Math.min(Math.max(1, Math.ceil(ms)), 2 ** 31 - 1);
}
