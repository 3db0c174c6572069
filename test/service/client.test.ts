import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClientOptions } from '../../src/service/client.js';
import { closeAllPools } from '../../src/service/pools.js';
import { simRequestHeaders } from '../../src/sim/protocol.js';
import { SIM_CASE_HEADER, SIM_DIRECTIVE_HEADER } from '../../src/sim/protocol.js';
import type { ServiceConfig } from '../../src/config/types.js';
import type { CompletionRequest, ServiceClient } from '../../src/service/types.js';
import { directKey, json, makeService, okBody, routerKey, startServer, type TestServer } from './helpers.js';

const request: CompletionRequest = {
  model: 'openai/gpt-4o-mini',
  messages: [{ role: 'user', content: 'What is the refund window?' }],
  params: { temperature: 0, reasoning_effort: 'low' },
};

const servers: TestServer[] = [];
const clients: ServiceClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(closeAllPools);

async function server(...args: Parameters<typeof startServer>): Promise<TestServer> {
  const s = await startServer(...args);
  servers.push(s);
  return s;
}

/** A client whose waits are recorded instead of slept. */
function client(service: ServiceConfig, extra: Partial<ServiceClientOptions> = {}) {
  const waits: number[] = [];
  const c = createServiceClient({
    service,
    apiKey: service.kind === 'router' ? routerKey : directKey,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...extra,
  });
  clients.push(c);
  return { c, waits };
}

describe('request shape', () => {
  it('posts the seed body with bearer auth and attribution, and reads the answer', async () => {
    const s = await server((_q, res) =>
      json(res, 200, okBody('30 days.'), { 'X-OpenRouter-Cache-Status': 'MISS' }),
    );
    const service = makeService('router', s.baseUrl, {
      headers: {
        'HTTP-Referer': 'https://example.com',
        'X-Title': 'dc',
        Authorization: 'Bearer nope',
        'X-OpenRouter-Cache': 'true',
      },
    });
    const outcome = await client(service).c.complete(request);

    expect(outcome).toMatchObject({
      status: 'ok',
      http_status: 200,
      attempts: 1,
      attempt_errors: [],
      wait_ms: 0,
      cache_status: 'MISS',
      completion: { content: '30 days.', model: 'openai/gpt-4o-mini-2024-07-18', finish_reason: 'stop' },
    });
    expect(s.received).toHaveLength(1);
    const [sent] = s.received;
    expect(sent).toMatchObject({ method: 'POST', url: '/v1/chat/completions' });
    expect(sent!.headers).toMatchObject({
      authorization: `Bearer ${routerKey}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'http-referer': 'https://example.com',
      'x-title': 'dc',
    });
    expect(sent!.headers['x-openrouter-cache']).toBeUndefined();
    expect(sent!.headers[SIM_DIRECTIVE_HEADER]).toBeUndefined();
    expect(JSON.parse(sent!.body)).toEqual({
      model: request.model,
      messages: request.messages,
      max_tokens: 512,
      temperature: 0,
    });
  });

  it('sends reasoning_effort and the configured max_tokens to a direct service', async () => {
    const s = await server((_q, res) => json(res, 200, okBody()));
    await client(makeService('direct', s.baseUrl)).c.complete(request);
    expect(JSON.parse(s.received[0]!.body)).toMatchObject({ max_tokens: 1024, reasoning_effort: 'low' });
  });

  it('sends sim headers when talking to the simulator', async () => {
    const s = await server((_q, res) => json(res, 200, okBody()));
    const { c } = client(makeService('router', s.baseUrl), { requestHeaders: simRequestHeaders });
    await c.complete({
      ...request,
      sim: { fault: 'rate_limited', fail_times: 1 },
      case_key: 'refunds/window#0',
    });
    expect(JSON.parse(s.received[0]!.headers[SIM_DIRECTIVE_HEADER] as string)).toEqual({
      fault: 'rate_limited',
      fail_times: 1,
    });
    expect(s.received[0]!.headers[SIM_CASE_HEADER]).toBe('refunds/window#0');
  });
});

describe('transport failures', () => {
  it('times out a service that never answers', async () => {
    const s = await server(() => {});
    const outcome = await client(makeService('router', s.baseUrl, { timeout_s: 0.2 })).c.complete(request);
    expect(outcome).toMatchObject({
      status: 'error',
      http_status: null,
      error: { kind: 'timeout', model: request.model },
    });
  });

  it('times out a body that stalls after the headers', async () => {
    const s = await server((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"gen-1",');
    });
    const outcome = await client(makeService('direct', s.baseUrl, { timeout_s: 0.2 })).c.complete(request);
    expect(outcome).toMatchObject({ status: 'error', error: { kind: 'timeout' } });
  });

  it('reports connection refused as a network error', async () => {
    const s = await startServer();
    const baseUrl = s.baseUrl;
    await s.close();
    const outcome = await client(makeService('router', baseUrl)).c.complete(request);
    expect(outcome).toMatchObject({ status: 'error', http_status: null, error: { kind: 'network' } });
    if (outcome.status === 'error') expect(outcome.error.message).toContain('ECONNREFUSED');
  });

  it('reports a socket destroyed mid-request as a network error', async () => {
    const s = await server((req) => req.socket.destroy());
    const outcome = await client(makeService('router', s.baseUrl)).c.complete(request);
    expect(outcome).toMatchObject({ status: 'error', error: { kind: 'network' } });
  });

  it('does not follow a redirect, so the key never reaches the other address', async () => {
    const elsewhere = await server((_q, res) => json(res, 200, okBody()));
    const s = await server((_q, res) => {
      res.writeHead(307, { location: `${elsewhere.baseUrl}/chat/completions?token=abc` });
      res.end();
    });
    const outcome = await client(makeService('router', s.baseUrl, { retries: 2 })).c.complete(request);
    expect(outcome).toMatchObject({
      status: 'error',
      http_status: 307,
      attempts: 1,
      error: { kind: 'bad_response' },
    });
    if (outcome.status === 'error') {
      expect(outcome.error.message).toContain('redirected');
      expect(outcome.error.message).not.toContain('token=abc');
    }
    expect(elsewhere.received).toHaveLength(0);
  });

  it.each([
    ['with content-length', true],
    ['chunked', false],
  ])('stops reading a body past the cap (%s)', async (_name, withLength) => {
    const big = JSON.stringify(okBody('x'.repeat(2 * 1024 * 1024)));
    const s = await server((_q, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        ...(withLength ? { 'content-length': String(Buffer.byteLength(big)) } : {}),
      });
      res.end(big);
    });
    const outcome = await client(makeService('router', s.baseUrl), { maxBodyBytes: 64 * 1024 }).c.complete(
      request,
    );
    expect(outcome).toMatchObject({ status: 'error', error: { kind: 'bad_response' } });
    if (outcome.status === 'error') expect(outcome.error.message).toContain('cap');
  });
});

describe('successful-status failures', () => {
  it('treats an error object in a 200 body as body_error and keeps what it could read', async () => {
    const body = okBody('', {
      error: { code: 502, message: 'Upstream error', metadata: { error_type: 'unmapped' } },
    });
    const s = await server((_q, res) => json(res, 200, body));
    const outcome = await client(makeService('router', s.baseUrl)).c.complete(request);
    expect(outcome).toMatchObject({
      status: 'error',
      http_status: 200,
      error: { kind: 'body_error', http_status: 200, code: '502', type: 'unmapped' },
      completion: { id: 'gen-1', usage: { total_tokens: 12 } },
    });
  });

  it.each([
    ['HTML', 'text/html', '<html>oops</html>', 'bad_response'],
    ['empty', 'application/json', '', 'bad_response'],
    ['empty choices', 'application/json', JSON.stringify({ id: 'gen-9', choices: [] }), 'empty_choices'],
  ])('classifies a 200 with %s body', async (_name, type, text, kind) => {
    const s = await server((_q, res) => {
      res.writeHead(200, { 'content-type': type });
      res.end(text);
    });
    const outcome = await client(makeService('direct', s.baseUrl)).c.complete(request);
    expect(outcome).toMatchObject({ status: 'error', error: { kind } });
  });
});

describe('retries', () => {
  it('waits what Retry-After asks, records each failed attempt, then succeeds', async () => {
    let calls = 0;
    const s = await server((_q, res) => {
      calls += 1;
      if (calls <= 2)
        json(res, 429, { error: { code: 429, message: 'Rate limit exceeded' } }, { 'Retry-After': '7' });
      else json(res, 200, okBody());
    });
    const ticks = [0, 100, 1000, 1100, 5000, 5030];
    const { c, waits } = client(makeService('router', s.baseUrl, { retries: 3 }), {
      now: () => ticks.shift() ?? 0,
    });
    const outcome = await c.complete(request);
    expect(waits).toEqual([7000, 7000]);
    expect(outcome).toMatchObject({ status: 'ok', attempts: 3, wait_ms: 14_000, latency_ms: 30 });
    expect(outcome.attempt_errors).toHaveLength(2);
    expect(outcome.attempt_errors[0]).toMatchObject({
      kind: 'rate_limited',
      http_status: 429,
      retry_after_s: 7,
    });
    expect(s.received).toHaveLength(3);
  });

  it('reads an HTTP-date Retry-After and the router X-RateLimit-Reset against the wall clock', async () => {
    const wall = Date.parse('2026-03-01T12:00:00Z');
    const answers: Record<string, string>[] = [
      { 'Retry-After': 'Sun, 01 Mar 2026 12:00:04 GMT' },
      { 'X-RateLimit-Reset': String(wall + 2500) },
    ];
    const s = await server((_q, res) => {
      const headers = answers.shift();
      if (headers) json(res, 429, { error: { code: 429, message: 'slow down' } }, headers);
      else json(res, 200, okBody());
    });
    const { c, waits } = client(makeService('router', s.baseUrl, { retries: 2 }), { wallNow: () => wall });
    expect((await c.complete(request)).status).toBe('ok');
    expect(waits).toEqual([4000, 2500]);
  });

  it('backs off exponentially with jitter when the service gives no wait', async () => {
    const s = await server((_q, res) =>
      json(res, 500, { error: { message: 'boom', type: 'server_error', code: null } }),
    );
    const { c, waits } = client(makeService('direct', s.baseUrl, { retries: 2 }), { random: () => 0.5 });
    const outcome = await c.complete(request);
    expect(waits).toEqual([250, 500]);
    expect(outcome).toMatchObject({
      status: 'error',
      attempts: 3,
      wait_ms: 750,
      error: { kind: 'server_error' },
    });
    expect(outcome.attempt_errors.map((e) => e.kind)).toEqual(['server_error', 'server_error']);
  });

  it('retries a time-out', async () => {
    let calls = 0;
    const s = await server((_q, res) => {
      calls += 1;
      if (calls > 1) json(res, 200, okBody());
    });
    const { c } = client(makeService('router', s.baseUrl, { retries: 1, timeout_s: 0.2 }));
    const outcome = await c.complete(request);
    expect(outcome).toMatchObject({ status: 'ok', attempts: 2, attempt_errors: [{ kind: 'timeout' }] });
  });

  it.each([
    ['router auth', 'router', 401, { error: { code: 401, message: 'No auth credentials found' } }, 'auth'],
    [
      'router budget',
      'router',
      403,
      { error: { code: 403, message: 'Workspace daily budget of $5.00 exceeded. Contact your org admin.' } },
      'budget_exceeded',
    ],
    [
      'router credit',
      'router',
      402,
      { error: { code: 402, message: 'Insufficient credits' } },
      'insufficient_credit',
    ],
    [
      'direct depleted',
      'direct',
      429,
      { error: { message: 'quota', type: 'insufficient_quota', code: 'insufficient_quota', param: null } },
      'depleted',
    ],
    [
      'router routing',
      'router',
      404,
      {
        error: {
          code: 404,
          message: 'No endpoints',
          availability: { code: 'no_endpoints', retryable: false },
        },
      },
      'routing',
    ],
  ] as const)('never retries %s', async (_name, kind, status, body, expected) => {
    const s = await server((_q, res) => json(res, status, body, { 'Retry-After': '1' }));
    const { c, waits } = client(makeService(kind, s.baseUrl, { retries: 3 }));
    const outcome = await c.complete(request);
    expect(outcome).toMatchObject({
      status: 'error',
      attempts: 1,
      attempt_errors: [],
      error: { kind: expected },
    });
    expect(waits).toEqual([]);
    expect(s.received).toHaveLength(1);
  });

  it('retries a routing failure the service marks retryable', async () => {
    let calls = 0;
    const s = await server((_q, res) => {
      calls += 1;
      if (calls === 1) {
        json(res, 503, {
          error: {
            code: 503,
            message: 'Busy',
            availability: { code: 'no_endpoints', retryable: true, retry_after: 3 },
          },
        });
      } else json(res, 200, okBody());
    });
    const { c, waits } = client(makeService('router', s.baseUrl, { retries: 1 }));
    expect(await c.complete(request)).toMatchObject({ status: 'ok', attempts: 2 });
    expect(waits).toEqual([3000]);
  });

  it('gives up when the next wait would pass the total wait budget', async () => {
    const s = await server((_q, res) =>
      json(res, 429, { error: { code: 429, message: 'Rate limited' } }, { 'Retry-After': '100' }),
    );
    const { c, waits } = client(makeService('router', s.baseUrl, { retries: 5 }));
    const outcome = await c.complete(request);
    expect(waits).toEqual([100_000]);
    expect(outcome).toMatchObject({
      status: 'error',
      attempts: 2,
      error: { kind: 'rate_limited', retry_after_s: 100 },
    });
    if (outcome.status === 'error') expect(outcome.error.message).toContain('retry budget');
  });
});

describe('secrets and cancellation', () => {
  it('removes the key from an error message the service echoes back', async () => {
    const s = await server((_q, res) =>
      json(res, 401, {
        error: {
          message: `Incorrect API key provided: ${directKey}`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      }),
    );
    const outcome = await client(makeService('direct', s.baseUrl)).c.complete(request);
    expect(outcome.status).toBe('error');
    if (outcome.status === 'error') {
      expect(outcome.error.message).toBe('Incorrect API key provided: [REDACTED]');
      expect(JSON.stringify(outcome)).not.toContain(directKey);
    }
  });

  it('says an outcome was redacted when an earlier attempt echoed the key, though the last did not', async () => {
    let calls = 0;
    const s = await server((_q, res) =>
      calls++ === 0
        ? json(res, 500, { error: { message: `upstream failed for ${routerKey}`, code: 500 } })
        : json(res, 200, okBody('30 days.')),
    );
    const outcome = await client(makeService('router', s.baseUrl, { retries: 1 })).c.complete(request);
    expect(outcome).toMatchObject({ status: 'ok', attempts: 2, redacted: true });
    expect(outcome.attempt_errors[0]!.message).toBe('upstream failed for [REDACTED]');
    // The same answers without the key in them are not marked.
    calls = 1;
    expect((await client(makeService('router', s.baseUrl)).c.complete(request)).redacted).toBe(false);
  });

  it('rethrows the caller abort instead of reporting a failure', async () => {
    const s = await server(() => {});
    const controller = new AbortController();
    const { c } = client(makeService('router', s.baseUrl));
    const pending = c.complete({ ...request, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('run cancelled')), 20);
    await expect(pending).rejects.toThrow('run cancelled');
  });

  it('refuses to build a client for plain http to a remote host', () => {
    expect(() =>
      createServiceClient({ service: makeService('router', 'http://example.com/v1'), apiKey: routerKey }),
    ).toThrow(/plain http/);
  });
});
