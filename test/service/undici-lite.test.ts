import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as undici from 'undici';
import { describe, expect, it } from 'vitest';
import { Pool, sendRequest } from '../../src/service/undici-lite.js';

// The run path loads two of undici's own modules instead of its whole index (start-up
// time). If an undici upgrade moves or changes them, this fails before anything else does.
describe('undici-lite', () => {
  it('hands out the same Pool class as the undici package', () => {
    expect(Pool).toBe(undici.Pool);
  });

  it('sends a request through a pool, path and query included, and reads the answer', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers['x-probe']}`);
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const pool = new Pool(`http://127.0.0.1:${port}`);
    try {
      const res = await sendRequest(pool, `http://127.0.0.1:${port}/v1/chat/completions?x=1`, {
        method: 'POST',
        headers: { 'x-probe': 'yes' },
        body: '{}',
      });
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toEqual({ ok: true });
      expect(seen).toEqual(['POST /v1/chat/completions?x=1 yes']);
    } finally {
      await pool.close();
      server.close();
    }
  });
});
