import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, ExchangeTimeout } from '../../src/service/exchange.js';
import { createRedactor } from '../../src/service/redact.js';

const KEY = `sk-or-v1-${'0123456789abcdef'.repeat(4)}`;
/** The key as a hostile JSON body may spell it: every character a \u escape, so no raw scan sees it. */
const ESCAPED_KEY = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

// One exchange over undici's public Pool: what the run relies on from the transport.

type Route = (req: IncomingMessage, res: ServerResponse) => void;
const routes: Record<string, Route> = {
  '/v1/chat/completions?x=1': (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-openrouter-cache-status', 'MISS');
      res.end(JSON.stringify({ method: req.method, probe: req.headers['x-probe'], body }));
    });
  },
  '/chunked': (_req, res) => {
    res.write('a'.repeat(600));
    setTimeout(() => res.end('b'.repeat(600)), 5);
  },
  '/declared-large': (_req, res) => {
    res.setHeader('content-length', '5000');
    res.end('c'.repeat(5000));
  },
  '/never': () => {},
  '/stalls-in-body': (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.write('{"partial":');
  },
  '/echo-key': (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.setHeader('x-echo', `your key: ${KEY}`);
    res.end(`{"plain":"${KEY}","escaped":"${ESCAPED_KEY}","error":{"message":"bad key ${KEY}"}}`);
  },
  '/redirect': (_req, res) => {
    res.statusCode = 307;
    res.setHeader('location', 'https://elsewhere.example/steal');
    res.end();
  },
};

let base = '';
let pool: Pool;
const server = createServer((req, res) => routes[req.url ?? '']?.(req, res));
beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pool = new Pool(base);
});
afterAll(async () => {
  await pool.destroy();
  server.closeAllConnections();
  server.close();
});

const send = (path: string, extra: Partial<Parameters<typeof exchange>[2]> = {}) =>
  exchange(pool, `${base}${path}`, {
    method: 'POST',
    headers: { 'x-probe': 'yes' },
    body: '{"q":1}',
    timeoutMs: 5000,
    maxBodyBytes: 1000,
    redactor: createRedactor([]),
    ...extra,
  });

describe('exchange', () => {
  it('sends method, path with query, headers and body, and reads status, headers and body', async () => {
    const res = await send('/v1/chat/completions?x=1', { maxBodyBytes: 10_000 });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-openrouter-cache-status']).toBe('MISS');
    expect(JSON.parse(res.body!)).toEqual({ method: 'POST', probe: 'yes', body: '{"q":1}' });
  });

  it('reads a body that arrives in pieces, and stops past the cap', async () => {
    expect((await send('/chunked', { maxBodyBytes: 2000 })).body).toBe('a'.repeat(600) + 'b'.repeat(600));
    const capped = await send('/chunked', { maxBodyBytes: 1000 });
    expect(capped.body).toBeUndefined();
    expect(capped.tooLarge).toBe(1200);
  });

  it('refuses a declared length past the cap before reading it', async () => {
    const res = await send('/declared-large');
    expect(res).toMatchObject({ statusCode: 200, tooLarge: 5000 });
  });

  it('returns a redirect as it is, without following it', async () => {
    const res = await send('/redirect');
    expect(res.statusCode).toBe(307);
    expect(res.headers.location).toBe('https://elsewhere.example/steal');
  });

  it('times out a silent server', async () => {
    await expect(send('/never', { timeoutMs: 50 })).rejects.toBeInstanceOf(ExchangeTimeout);
  });

  it('counts the time-out over the body too, not just the headers', async () => {
    await expect(send('/stalls-in-body', { timeoutMs: 80 })).rejects.toBeInstanceOf(ExchangeTimeout);
    const during = new AbortController();
    const pending = send('/stalls-in-body', { signal: during.signal });
    setTimeout(() => during.abort(new Error('stop in body')), 40);
    await expect(pending).rejects.toThrow('stop in body');
  });

  it("rejects with the caller's reason on abort, before or during the exchange", async () => {
    const before = new AbortController();
    before.abort(new Error('stop before'));
    await expect(send('/never', { signal: before.signal })).rejects.toThrow('stop before');
    const during = new AbortController();
    const pending = send('/never', { signal: during.signal });
    setTimeout(() => during.abort(new Error('stop during')), 20);
    await expect(pending).rejects.toThrow('stop during');
  });

  it('with one signal shared by many exchanges, an abort rejects exactly those still waiting', async () => {
    const shared = new AbortController();
    const finished = await Promise.all([
      send('/v1/chat/completions?x=1', { signal: shared.signal }),
      send('/v1/chat/completions?x=1', { signal: shared.signal }),
    ]);
    expect(finished.map((a) => a.statusCode)).toEqual([200, 200]);
    const waiting = [1, 2, 3].map(() => send('/never', { signal: shared.signal }));
    const answered = send('/v1/chat/completions?x=1', { signal: shared.signal });
    expect((await answered).statusCode).toBe(200);
    setTimeout(() => shared.abort(new Error('stop all')), 20);
    const settled = await Promise.allSettled(waiting);
    expect(settled.map((s) => (s.status === 'rejected' ? (s.reason as Error).message : 'answered'))).toEqual([
      'stop all',
      'stop all',
      'stop all',
    ]);
  });

  it('hands back headers and body already redacted, a key spelled in JSON escapes included, and says so', async () => {
    const res = await send('/echo-key', { redactor: createRedactor([KEY]) });
    expect(res.redacted).toBe(true);
    expect(res.headers['x-echo']).toBe('your key: [REDACTED]');
    // The body still parses, and nothing in it or in what it parses to holds the key.
    expect(JSON.parse(res.body!)).toEqual({
      plain: '[REDACTED]',
      escaped: '[REDACTED]',
      error: { message: 'bad key [REDACTED]' },
    });
    expect(JSON.stringify(res)).not.toContain(KEY.slice(9, 21));
    // Without the key to look for, the same answer comes back untouched.
    const clean = await send('/echo-key');
    expect(clean.redacted).toBe(false);
    expect(JSON.parse(clean.body!).escaped).toBe(KEY);
  });

  it('rejects with the network error when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    closed.close();
    const lonely = new Pool(url);
    try {
      await expect(
        exchange(lonely, `${url}/x`, {
          method: 'GET',
          headers: {},
          timeoutMs: 5000,
          maxBodyBytes: 10,
          redactor: createRedactor([]),
        }),
      ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      await lonely.destroy();
    }
  });
});
