import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimReply } from './reply.js';

const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** A `timeout` fault never answers; this cap only stops a forgotten client from pinning a socket forever. */
const HANG_CAP_MS = 10 * 60 * 1000;

export const TOO_LARGE: SimReply = {
  action: 'respond',
  status: 413,
  headers: { connection: 'close' },
  body: '{"error":{"message":"Request body too large."}}',
};

/** Timers the server owns, so close() can cancel every pending delay and hang at once. */
export class TimerSet {
  private readonly timers = new Set<NodeJS.Timeout>();

  after(ms: number, run: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
    return timer;
  }

  cancel(timer: NodeJS.Timeout): void {
    clearTimeout(timer);
    this.timers.delete(timer);
  }

  clearAll(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

/**
 * Carries out a reply: writes it, drops the socket (`network`) or holds the request open
 * until the client leaves (`timeout`). `count` hears the status (or `network`/`timeout`).
 */
export function sendReply(
  req: IncomingMessage,
  res: ServerResponse,
  reply: SimReply,
  timers: TimerSet,
  count?: (status: string) => void,
): void {
  if (reply.action === 'destroy') {
    count?.('network');
    req.socket.destroy();
  } else if (reply.action === 'hang') {
    count?.('timeout');
    const timer = timers.after(HANG_CAP_MS, () => req.socket.destroy());
    res.once('close', () => timers.cancel(timer));
  } else {
    count?.(String(reply.status));
    if (res.destroyed) return;
    res.writeHead(reply.status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(reply.body),
      ...reply.headers,
    });
    res.end(reply.body);
  }
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

/** Reads the whole body as UTF-8; null when it exceeds the size cap. A broken request is dropped. */
export function readBody(req: IncomingMessage, done: (raw: string | null) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (raw: string | null) => {
    if (finished) return;
    finished = true;
    done(raw);
  };
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      req.removeAllListeners('data');
      req.resume();
      finish(null);
    } else chunks.push(chunk);
  });
  req.on('end', () => finish(Buffer.concat(chunks, size).toString('utf8')));
  req.on('error', () => {
    finished = true;
    req.socket.destroy();
  });
}
