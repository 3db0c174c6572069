import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../src/service/client.js';
import { closeAllPools } from '../../src/service/pools.js';
import type { ServiceConfig } from '../../src/config/types.js';
import type { CompletionRequest, ServiceClient } from '../../src/service/types.js';
import { directKey, json, makeService, okBody, routerKey, startServer, type TestServer } from './helpers.js';

// The client on `stream: true` against a real loopback server that streams, pauses, breaks
// off and errs mid-stream the ways the services' documentation says streams do.

const request: CompletionRequest = {
  model: 'openai/gpt-4o-mini',
  messages: [{ role: 'user', content: 'Stream me an answer.' }],
  params: { stream: true },
};

const servers: TestServer[] = [];
const clients: ServiceClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(closeAllPools);

type Step = string | { wait: number } | 'destroy' | 'end';

/** A server answering every request with these writes, in order, each SSE event as written. */
async function streaming(steps: Step[], status = 200): Promise<TestServer> {
  const s = await startServer((_q, res) => void play(res, steps, status));
  servers.push(s);
  return s;
}

async function play(res: ServerResponse, steps: Step[], status: number) {
  res.writeHead(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const step of steps) {
    if (step === 'destroy') return void res.destroy();
    if (step === 'end') return void res.end();
    if (typeof step === 'string') res.write(step);
    else await new Promise((done) => setTimeout(done, step.wait));
  }
  res.end();
}

const event = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;
const delta = (d: Record<string, unknown>, finish: string | null = null) =>
  event({
    id: 'gen-9',
    model: 'openai/gpt-4o-mini',
    choices: [{ index: 0, delta: d, finish_reason: finish }],
  });
const usage = event({
  id: 'gen-9',
  choices: [],
  usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13, cost: 0.00002 },
});
const DONE = 'data: [DONE]\n\n';

function client(service: ServiceConfig) {
  const c = createServiceClient({
    service,
    apiKey: service.kind === 'router' ? routerKey : directKey,
    sleep: async () => {},
  });
  clients.push(c);
  return c;
}

/** A router client's outcome of `request` against a server playing `steps`, with the server (`s`). */
async function streamedAnswer(steps: Step[], service: Partial<ServiceConfig> = {}) {
  const s = await streaming(steps);
  return { s, outcome: await client(makeService('router', s.baseUrl, service)).complete(request) };
}

describe('a streamed request', () => {
  it('asks for a stream, skips keep-alives, and reads the answer, its usage and when its tokens came', async () => {
    const { s, outcome } = await streamedAnswer([
      ': OPENROUTER PROCESSING\n\n',
      { wait: 30 },
      ': OPENROUTER PROCESSING\n\n',
      delta({ role: 'assistant', content: '' }),
      delta({ content: 'Refunds within ' }),
      { wait: 20 },
      delta({ content: '30 days.' }, 'stop'),
      usage,
      DONE,
    ]);
    expect(outcome).toMatchObject({
      status: 'ok',
      completion: {
        content: 'Refunds within 30 days.',
        finish_reason: 'stop',
        usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13, cost: 0.00002 },
      },
      stream: { chunks: 4, comments: 2, characters: 23, done: true, finished: true, end: 'ended' },
    });
    const { stream } = outcome;
    expect(stream!.first_token_ms).not.toBeNull();
    expect(stream!.last_token_ms!).toBeGreaterThanOrEqual(stream!.first_token_ms!);
    const sent = JSON.parse(s.received[0]!.body) as Record<string, unknown>;
    expect(sent.stream).toBe(true);
    // The router always sends usage: it is not asked for.
    expect(sent).not.toHaveProperty('stream_options');
    expect(s.received[0]!.headers.accept).toBe('text/event-stream, application/json');
  });

  it('asks a direct service for usage in the stream, and records none when none comes', async () => {
    const s = await streaming([delta({ role: 'assistant', content: 'Hi.' }, 'stop'), DONE]);
    const outcome = await client(makeService('direct', s.baseUrl)).complete({ ...request, model: 'gpt-4o' });
    expect(JSON.parse(s.received[0]!.body)).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(outcome).toMatchObject({ status: 'ok', completion: { content: 'Hi.', usage: null } });
  });

  it('is body_error for an error event after HTTP 200, with its code, its message and the content before it', async () => {
    const { s, outcome } = await streamedAnswer(
      [
        delta({ role: 'assistant', content: 'The refund window is' }),
        event({
          id: 'gen-9',
          error: { code: 502, message: 'Provider disconnected unexpectedly' },
          choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
        }),
        DONE,
      ],
      { retries: 2 },
    );
    expect(outcome).toMatchObject({
      status: 'error',
      error: { kind: 'body_error', http_status: 200, code: '502' },
      completion: { content: 'The refund window is' },
      attempts: 1,
    });
    expect(outcome.status === 'error' && outcome.error.message).toContain(
      'Provider disconnected unexpectedly',
    );
    // Content had come: the stream is not sent again, though the error is retryable.
    expect(s.received).toHaveLength(1);
  });

  it('is stream_interrupted when the stream ends or breaks off without a finish_reason or [DONE]', async () => {
    for (const [last, said] of [
      ['end', 'ended'],
      ['destroy', 'broke off'],
    ] as const) {
      const { outcome } = await streamedAnswer(
        [delta({ role: 'assistant', content: 'Half of it' }), { wait: 10 }, last],
        { retries: 2 },
      );
      expect(outcome).toMatchObject({
        status: 'error',
        error: {
          kind: 'stream_interrupted',
          message: `the stream ${said} after 1 chunk, 10 characters, without a finish_reason or [DONE]`,
        },
        completion: { content: 'Half of it', usage: null },
        attempts: 1,
      });
    }
  });

  it('is a timeout that says how far it got when the stream stalls past idle_timeout_s', async () => {
    const { outcome } = await streamedAnswer(
      [
        delta({ role: 'assistant', content: 'Thinking' }),
        { wait: 1_000 },
        delta({ content: ' done.' }, 'stop'),
        DONE,
      ],
      { idle_timeout_s: 0.1 },
    );
    expect(outcome).toMatchObject({
      status: 'error',
      error: {
        kind: 'timeout',
        message: 'stalled after 1 chunk, 8 characters: nothing more for 0.1 s (idle_timeout_s)',
      },
      completion: { content: 'Thinking' },
      stream: { end: 'stalled', chunks: 1 },
    });
  });

  it('counts a stall between chunks however many keep-alive comments fill it, and never the wait for the first token', async () => {
    const keepalives = Array.from(
      { length: 10 },
      () => [{ wait: 50 }, ': OPENROUTER PROCESSING\n\n'] as Step[],
    ).flat();
    const { outcome } = await streamedAnswer(
      [
        ...keepalives,
        delta({ role: 'assistant', content: 'Thinking' }),
        ...keepalives,
        delta({ content: ' done.' }, 'stop'),
        DONE,
      ],
      { idle_timeout_s: 0.2 },
    );
    // 500 ms of comments before the first token is a slow first token, not a stall; after it, a stall.
    expect(outcome).toMatchObject({
      status: 'error',
      error: {
        kind: 'timeout',
        message: 'stalled after 1 chunk, 8 characters: nothing more for 0.2 s (idle_timeout_s)',
      },
      stream: { end: 'stalled', chunks: 1 },
    });
  });

  it('is a bad_response that says where to look for a stream whose event is not a chunk of JSON', async () => {
    const { outcome } = await streamedAnswer([
      delta({ role: 'assistant', content: 'Half' }),
      'data: <html>proxy error</html>\n\n',
      DONE,
    ]);
    expect(outcome).toMatchObject({
      status: 'error',
      error: {
        kind: 'bad_response',
        message:
          'event 2 of the streamed answer is not a JSON chunk; reading stopped (the service or a proxy in front of it sent something else: check base_url)',
      },
      completion: { content: 'Half' },
    });
    expect(JSON.stringify(outcome)).not.toContain('proxy error');
  });

  it('is a bad_response that says what to do for a stream past the body cap', async () => {
    const s = await streaming([
      delta({ role: 'assistant', content: 'Half' }),
      delta({ content: 'x'.repeat(500) }),
      DONE,
    ]);
    const capped = createServiceClient({
      service: makeService('router', s.baseUrl),
      apiKey: routerKey,
      sleep: async () => {},
      maxBodyBytes: 400,
    });
    clients.push(capped);
    const outcome = await capped.complete(request);
    expect(outcome).toMatchObject({ status: 'error', error: { kind: 'bad_response' } });
    expect(outcome.status === 'error' && outcome.error.message).toMatch(
      /^streamed answer exceeded the 400-byte cap after \d+ chunks?, \d+ characters?; reading stopped \(lower max_tokens, or check that base_url is the service's\)$/,
    );
  });

  it('retries a failure before any content came, as a plain request is retried', async () => {
    let calls = 0;
    const s = await startServer((_q, res) => {
      calls += 1;
      if (calls === 1) return json(res, 502, { error: { code: 502, message: 'upstream hiccup' } });
      void play(res, [delta({ role: 'assistant', content: 'ok' }, 'stop'), usage, DONE], 200);
    });
    servers.push(s);
    const outcome = await client(makeService('router', s.baseUrl, { retries: 2 })).complete(request);
    expect(outcome).toMatchObject({ status: 'ok', attempts: 2, completion: { content: 'ok' } });
  });

  it('reads a plain JSON answer to a streamed request as a plain answer (a service that ignores stream)', async () => {
    const s = await startServer((_q, res) => json(res, 200, okBody('Not streamed.')));
    servers.push(s);
    const outcome = await client(makeService('router', s.baseUrl)).complete(request);
    expect(outcome).toMatchObject({ status: 'ok', completion: { content: 'Not streamed.' } });
    expect(outcome).not.toHaveProperty('stream');
  });

  it('never keeps a key the stream echoes, even split across two events', async () => {
    const { outcome } = await streamedAnswer([
      delta({ role: 'assistant', content: `Your key: ${routerKey.slice(0, 17)}` }),
      delta({ content: `${routerKey.slice(17)}.` }, 'stop'),
      DONE,
    ]);
    expect(outcome).toMatchObject({
      status: 'ok',
      redacted: true,
      completion: { content: 'Your key: [REDACTED].' },
    });
  });
});
