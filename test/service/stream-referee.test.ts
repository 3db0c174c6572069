import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../src/service/client.js';
import { closeAllPools } from '../../src/service/pools.js';
import { generateSimKey, type Simulator, startSimulator } from '../../src/sim/server.js';
import { SIM_DIRECTIVE_HEADER } from '../../src/sim/protocol.js';
import { makeService } from './helpers.js';

// Issue 37, item 7: the official openai SDK's streaming helper is the referee of driftcheck's
// reading of a stream. Each stream is taken once from the simulator (bytes as it wrote them,
// faults included), then replayed byte for byte by a loopback server to both readers — the
// SDK's `chat.completions.stream(...).finalChatCompletion()` and driftcheck's client — which
// must agree on what the answer said.

const MODEL = 'kimi-k2-0905-preview';
const TOOLS = ['get_weather', 'search_docs'].map((name) => ({
  type: 'function' as const,
  function: {
    name,
    parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  },
}));

const CASES: { name: string; body: Record<string, unknown>; directive?: Record<string, unknown> }[] = [
  {
    name: 'text',
    body: { messages: [{ role: 'user', content: 'Explain the refund policy in two sentences.' }] },
  },
  {
    name: 'parallel tool calls',
    body: {
      messages: [
        { role: 'user', content: 'Search the docs for umbrellas and tell me the weather in "Oslo"' },
      ],
      tools: TOOLS,
    },
    directive: { tool_fault: 'parallel_calls' },
  },
  {
    name: 'bytes split inside UTF-8 characters',
    body: { messages: [{ role: 'user', content: 'Say exactly: Grüße aus Zürich — 東京 🎉' }] },
    directive: { stream_fault: 'split_utf8' },
  },
  {
    name: 'a stream without usage',
    body: { messages: [{ role: 'user', content: 'Say hello.' }] },
    directive: { stream_fault: 'no_usage' },
  },
  {
    name: 'keep-alive comments first',
    body: { messages: [{ role: 'user', content: 'Say hello.' }] },
    directive: { stream_fault: 'keepalive' },
  },
];

let sim: Simulator;
let replay: Server;
let replayUrl = '';
/** The recorded answer the replay server sends next: its status, headers and bytes. */
let next: { status: number; type: string; bytes: Buffer } | null = null;

beforeAll(async () => {
  sim = await startSimulator({ seed: 5 });
  replay = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(next!.status, { 'content-type': next!.type });
      res.end(next!.bytes);
    });
  });
  await new Promise<void>((done) => replay.listen(0, '127.0.0.1', done));
  replayUrl = `http://127.0.0.1:${(replay.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await closeAllPools();
  await new Promise((done) => replay.close(done));
  await sim.close();
});

/** One streamed answer of the simulator's, as bytes. */
async function record(body: Record<string, unknown>, directive?: Record<string, unknown>) {
  const res = await fetch(`${sim.directBaseUrl}/chat/completions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${generateSimKey('direct')}`,
      'content-type': 'application/json',
      ...(directive ? { [SIM_DIRECTIVE_HEADER]: JSON.stringify(directive) } : {}),
    },
    body: JSON.stringify({ model: MODEL, stream: true, stream_options: { include_usage: true }, ...body }),
  });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

describe('driftcheck and the openai SDK read the same stream alike', () => {
  for (const c of CASES)
    it(c.name, async () => {
      next = await record(c.body, c.directive);
      expect(next.type).toMatch(/^text\/event-stream/);
      const sdk = await new OpenAI({
        apiKey: 'sk-replay',
        baseURL: replayUrl,
        maxRetries: 0,
      }).chat.completions
        .stream({ model: MODEL, ...(c.body as { messages: [] }) })
        .finalChatCompletion();
      const client = createServiceClient({
        service: makeService('direct', replayUrl),
        apiKey: `sk-${'replay01'.repeat(6)}`,
      });
      const ours = await client.complete({
        model: MODEL,
        messages: c.body.messages as never,
        params: { stream: true, ...(c.body.tools ? { tools: c.body.tools as unknown[] } : {}) },
      });
      await client.close();
      expect(ours.status).toBe('ok');
      const choice = sdk.choices[0]!;
      expect(ours.completion!.content).toBe(choice.message.content ?? '');
      expect(ours.completion!.finish_reason).toBe(choice.finish_reason);
      expect(ours.completion!.tool_calls?.map((t) => [t.id, t.name, t.arguments]) ?? []).toEqual(
        (choice.message.tool_calls ?? []).map((t) =>
          t.type === 'function' ? [t.id, t.function.name, t.function.arguments] : [t.id],
        ),
      );
      const usage = sdk.usage ?? null;
      expect(ours.completion!.usage && { ...ours.completion!.usage }).toEqual(
        usage && {
          prompt_tokens: usage.prompt_tokens,
          completion_tokens: usage.completion_tokens,
          total_tokens: usage.total_tokens,
        },
      );
    });

  it('an error event after content: the SDK throws, driftcheck keeps the content before it as a body_error', async () => {
    next = await record(
      { messages: [{ role: 'user', content: 'Explain the refund policy in two sentences.' }] },
      { stream_fault: 'error_after_content' },
    );
    const openai = new OpenAI({ apiKey: 'sk-replay', baseURL: replayUrl, maxRetries: 0 });
    const stream = openai.chat.completions.stream({
      model: MODEL,
      messages: [{ role: 'user', content: 'x' }],
    });
    let sdkContent = '';
    stream.on('content', (delta) => (sdkContent += delta));
    await expect(stream.finalChatCompletion()).rejects.toThrow();
    const client = createServiceClient({
      service: makeService('direct', replayUrl),
      apiKey: `sk-${'replay01'.repeat(6)}`,
    });
    const ours = await client.complete({
      model: MODEL,
      messages: [{ role: 'user', content: 'x' }],
      params: { stream: true },
    });
    await client.close();
    expect(ours).toMatchObject({ status: 'error', error: { kind: 'body_error' } });
    expect(ours.completion!.content).toBe(sdkContent);
    expect(sdkContent.length).toBeGreaterThan(0);
  });
});
