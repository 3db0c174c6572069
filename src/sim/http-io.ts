import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimReply, SimStream } from './reply.js';

const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** A `timeout` fault never answers; this cap only stops a forgotten client from pinning a socket forever. */
const HANG_CAP_MS = 10 * 60 * 1000;

export const TOO_LARGE: SimReply = {
  action: 'respond',
  status: 413,
  headers: { connection: 'close' },
  body: '{"error":{"message":"Request body too large."}}',
};

/** A pending timer or immediate of the server's. */
type Pending = NodeJS.Timeout | NodeJS.Immediate;

/** Timers the server owns, so close() can cancel every pending delay, write and hang at once. */
export class TimerSet {
  private readonly timeouts = new Set<NodeJS.Timeout>();
  private readonly immediates = new Set<NodeJS.Immediate>();

  /** Runs `run` after `ms`; 0 (or less) runs it on the next turn of the event loop, after pending I/O. */
  after(ms: number, run: () => void): Pending {
    if (ms > 0) {
      const timeout = setTimeout(() => {
        this.timeouts.delete(timeout);
        run();
      }, ms);
      this.timeouts.add(timeout);
      return timeout;
    }
    const immediate = setImmediate(() => {
      this.immediates.delete(immediate);
      run();
    });
    this.immediates.add(immediate);
    return immediate;
  }

  cancel(timer: Pending): void {
    if (this.timeouts.delete(timer as NodeJS.Timeout)) clearTimeout(timer as NodeJS.Timeout);
    else if (this.immediates.delete(timer as NodeJS.Immediate)) clearImmediate(timer as NodeJS.Immediate);
  }

  clearAll(): void {
    for (const timeout of this.timeouts) clearTimeout(timeout);
    for (const immediate of this.immediates) clearImmediate(immediate);
    this.timeouts.clear();
    this.immediates.clear();
  }
}

/**
 * Carries out a reply: writes it, streams it, drops the socket (`network`) or holds the request
 * open until the client leaves (`timeout`). `count` hears the status (or `network`/`timeout`).
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
  } else if (reply.action === 'stream') {
    count?.(String(reply.status));
    if (!res.destroyed) sendStream(req, res, reply, timers);
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

/**
 * The headers at once (no length: the body is chunked), then each write after its pause, one
 * write per turn of the event loop at the least, so a reader sees the bytes as they were
 * split; then the end, or the connection dropped. A client that leaves stops it.
 */
function sendStream(req: IncomingMessage, res: ServerResponse, reply: SimStream, timers: TimerSet): void {
  res.writeHead(reply.status, reply.headers);
  res.flushHeaders();
  let pending: Pending | null = null;
  res.once('close', () => {
    if (pending !== null) timers.cancel(pending);
  });
  const step = (index: number) => {
    pending = null;
    if (res.destroyed) return;
    const write = reply.writes[index];
    if (write === undefined) {
      // A cut drops the connection a turn after the last write, once its bytes are out.
      if (reply.ending === 'cut') pending = timers.after(0, () => req.socket.destroy());
      else res.end();
      return;
    }
    pending = timers.after(write.afterMs, () => {
      res.write(write.bytes);
      step(index + 1);
    });
  };
  step(0);
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
