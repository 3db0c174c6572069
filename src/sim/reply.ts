import type { SimFault } from '../suite/types.js';

/** What the simulator does with one request: answer it, stream it, hang until the client leaves, or drop the socket. */
export type SimReply =
  | { action: 'respond'; status: number; headers: Record<string, string>; body: string }
  | SimStream
  | { action: 'hang' }
  | { action: 'destroy' };

/** One write of a streamed reply: its bytes, sent this long after the write before it (or the headers). */
export interface SimWrite {
  afterMs: number;
  bytes: Buffer;
}

/**
 * A reply sent over time (server-sent events): the headers at once, then each write after its
 * pause, then the response ends (`end`) or the connection is dropped mid-body (`cut`).
 */
export interface SimStream {
  action: 'stream';
  status: number;
  headers: Record<string, string>;
  writes: SimWrite[];
  ending: 'end' | 'cut';
}

/** Faults answered with an error status (everything else is a 200 or a broken connection). */
export type ErrorFault = Extract<
  SimFault,
  | 'auth'
  | 'permission'
  | 'insufficient_credit'
  | 'budget_exceeded'
  | 'depleted'
  | 'routing'
  | 'rate_limited'
  | 'invalid_model'
  | 'server_error'
>;

const ERROR_FAULTS = new Set<SimFault>([
  'auth',
  'permission',
  'insufficient_credit',
  'budget_exceeded',
  'depleted',
  'routing',
  'rate_limited',
  'invalid_model',
  'server_error',
]);

export function isErrorFault(fault: SimFault): fault is ErrorFault {
  return ERROR_FAULTS.has(fault);
}

/** What an error reply may need to say: the model named, the key presented, how long to wait. */
export interface ErrorContext {
  model: string;
  /** The presented key (null when none was sent). */
  key: string | null;
  /** Echo the whole key instead of a masked one (tests that keys get redacted downstream). */
  echoKey: boolean;
  retryAfterS: number;
  /** The directive set `retry_after_s` itself: the routing and credit faults then send their wait-and-retry variants. */
  retryAfterSet?: boolean;
}

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): SimReply {
  return { action: 'respond', status, headers, body: JSON.stringify(body) };
}

/** Headers of a 429: how long to wait and the (simulated) exhausted window. */
export function rateLimitHeaders(retryAfterS: number): Record<string, string> {
  return {
    'retry-after': String(retryAfterS),
    'x-ratelimit-limit': '60',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': String(Date.now() + Math.ceil(retryAfterS * 1000)),
  };
}
