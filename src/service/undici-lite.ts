import { createRequire } from 'node:module';
import type { Dispatcher, Pool as UndiciPool } from 'undici';

// undici's package index loads every feature it has (fetch, WebSocket, cookies, caches,
// mocks, proxies): about 150 ms of every run's start-up on a 2-core machine. A run needs
// the connection pool only, about 55 ms. It is undici's own module (its package has no
// export map), the one its index re-exports; undici is pinned to an exact version for
// that reason, and test/service/undici-lite.test.ts checks it is the class the index hands out.
const require = createRequire(import.meta.url);

export const Pool = require('undici/lib/dispatcher/pool.js') as typeof UndiciPool;

export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** One HTTP exchange's answer: the body read whole, or how far it got past the cap. */
export type Exchanged =
  | { statusCode: number; headers: ResponseHeaders; body: string; tooLarge?: undefined }
  | { statusCode: number; headers: ResponseHeaders; body?: undefined; tooLarge: number };

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
}

const targets = new Map<string, { origin: string; path: string }>();

/**
 * Sends one request through `dispatcher` and reads the whole answer, with undici's
 * dispatch API and a handler of our own: no response stream, no async iterator, no
 * AbortController per request (together about 5 % of a 20,000-case run's profile when
 * answers come back at once). Rejects with ExchangeTimeout, the caller's abort
 * reason, or undici's network error; never follows a redirect.
 */
export function exchange(dispatcher: Dispatcher, url: string, options: ExchangeOptions): Promise<Exchanged> {
  let target = targets.get(url);
  if (!target) {
    const parsed = new URL(url);
    target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
    if (targets.size < 64) targets.set(url, target);
  }
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<Exchanged>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | null = null;
    /** Why the exchange was cut short, once it was (applied as soon as undici hands us the controller). */
    let cutShort: Error | null = null;
    let settled = false;
    let statusCode = 0;
    let headers: ResponseHeaders = {};
    const chunks: Buffer[] = [];
    let bytes = 0;
    const finish = (outcome: Exchanged | Error): void => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      unsubscribe?.();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    /** Stops the exchange (now, or as soon as undici hands over its controller) and settles it. */
    const cut = (reason: Error, outcome: Exchanged | Error = reason): void => {
      cutShort ??= reason;
      finish(outcome); // first: aborting calls onResponseError at once
      if (controller && !controller.aborted) controller.abort(reason);
    };
    const tooLarge = (at: number): void =>
      cut(new Error(`response body over ${options.maxBodyBytes} bytes`), {
        statusCode,
        headers,
        tooLarge: at,
      });
    const timer =
      options.timeoutMs > 0
        ? setTimeout(() => cut(new ExchangeTimeout(options.timeoutMs)), timerMs(options.timeoutMs))
        : undefined;
    const unsubscribe = signal ? onAbort(signal, () => cut(signal.reason as Error)) : undefined;
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (cutShort) c.abort(cutShort);
      },
      onResponseStart(_c, status, responseHeaders) {
        if (status < 200) return; // 1xx informational answers come before the answer
        statusCode = status;
        headers = responseHeaders as ResponseHeaders;
        const declared = Number(headers['content-length']);
        if (Number.isFinite(declared) && declared > options.maxBodyBytes) tooLarge(declared);
      },
      onResponseData(_c, chunk) {
        bytes += chunk.length;
        if (bytes > options.maxBodyBytes) tooLarge(bytes);
        else chunks.push(chunk);
      },
      onResponseEnd() {
        const body =
          chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
        finish({ statusCode, headers, body });
      },
      onResponseError(_c, error) {
        finish(error);
      },
    };
    try {
      dispatcher.dispatch(
        {
          origin: target.origin,
          path: target.path,
          method: options.method,
          headers: options.headers,
          body: options.body ?? null,
        },
        handler,
      );
    } catch (error) {
      finish(error as Error);
    }
  });
}

/**
 * A time-out Node's timers accept: whole milliseconds below 2^31 (a longer one fires
 * after 1 ms), so `timeout_s: 0.0015` does not throw and `timeout_s: 1e12` does not fire at once.
 */
export function timerMs(ms: number): number {
  return Math.min(Math.max(1, Math.ceil(ms)), 2 ** 31 - 1);
}

/** One waiting exchange in a signal's ring of listeners (the ring's head has no listener). */
interface Waiter {
  next: Waiter;
  prev: Waiter;
  listener: (() => void) | null;
}

/**
 * Calls `listener` once `signal` aborts; returns the way to stop waiting. One real listener
 * per signal however many exchanges wait on it (a run passes the same signal to every
 * request), kept in a ring of waiters rather than a Set. Adding and deleting one Set entry
 * per request made young-generation collections promote far more (at 100,000 instant
 * answers, 230 → 430–630 KB a collection, and peak RSS 260 → 450 MB); the ring does not.
 * Which part of V8's Set does that was not pinned down.
 */
const rings = new WeakMap<AbortSignal, Waiter>();
function onAbort(signal: AbortSignal, listener: () => void): () => void {
  let head = rings.get(signal);
  if (!head) {
    const ring = { listener: null } as Waiter;
    ring.next = ring.prev = ring;
    head = ring;
    rings.set(signal, ring);
    signal.addEventListener(
      'abort',
      () => {
        const listeners: (() => void)[] = [];
        while (ring.next !== ring) {
          const waiter = ring.next;
          if (waiter.listener) listeners.push(waiter.listener);
          leave(waiter);
        }
        for (const l of listeners) l();
      },
      { once: true },
    );
  }
  const waiter: Waiter = { next: head, prev: head.prev, listener };
  head.prev.next = waiter;
  head.prev = waiter;
  return () => leave(waiter);
}

/** Takes a waiter out of its ring (again is harmless). */
function leave(waiter: Waiter): void {
  waiter.prev.next = waiter.next;
  waiter.next.prev = waiter.prev;
  waiter.next = waiter.prev = waiter;
  waiter.listener = null;
}
