import { OpenRouter } from '@openrouter/sdk';
import type { ChatResult } from '@openrouter/sdk/models';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSimKey, type Simulator, startSimulator } from '../../src/sim/server.js';

// The official SDKs are the referees of the simulator's streams: the openai SDK's streaming
// helper (ChatCompletionStream, finalChatCompletion) against the direct service, and
// @openrouter/sdk (which validates every chunk with its schemas) against the router. What they
// assemble from a stream must be the non-streamed answer to the same request; what they do
// with a stream that goes wrong is asserted as they do it.

let sim: Simulator;
let openai: OpenAI;
let openrouter: OpenRouter;
beforeAll(async () => {
  sim = await startSimulator({ seed: 3 });
  openai = new OpenAI({ apiKey: generateSimKey('direct'), baseURL: sim.directBaseUrl, maxRetries: 0 });
  openrouter = new OpenRouter({
    apiKey: generateSimKey('router'),
    serverURL: sim.routerBaseUrl,
    retryConfig: { strategy: 'none' },
  });
});
afterAll(() => sim.close());

const DIRECT_MODEL = 'kimi-k2-0905-preview';
const ROUTER_MODEL = 'meta-llama/llama-3.3-70b-instruct';
const KIMI = 'moonshotai/kimi-k2-thinking';
const user = (content: string) => [{ role: 'user' as const, content }];
const tool = (name: string, description: string, property: string) => ({
  type: 'function' as const,
  function: {
    name,
    description,
    parameters: {
      type: 'object',
      properties: { [property]: { type: 'string' } },
      required: [property],
      additionalProperties: false,
    },
  },
});
const TOOLS = [
  tool('get_weather', 'Current weather for a city', 'city'),
  tool('search_docs', 'Search the documentation', 'query'),
];
const BOTH = 'Search the docs for umbrellas and tell me the weather in "Zürich"';
const LOOKUP = tool('lookup_order', 'Look up an order by its id', 'order_id');

/** A router chunk as @openrouter/sdk yields it (camelCase, validated). */
interface RouterChunk {
  error?: { code: number; message: string };
  choices: {
    finishReason?: string | null;
    delta: {
      content?: string | null;
      reasoning?: string | null;
      reasoningDetails?: { text?: string; signature?: string; index?: number }[];
      toolCalls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
  }[];
  usage?: ChatResult['usage'];
}

/** Every chunk @openrouter/sdk yields for a streamed router request, and the error it ended with. */
async function routerStream(
  chatRequest: Record<string, unknown>,
): Promise<{ chunks: RouterChunk[]; error: Error | null }> {
  const chunks: RouterChunk[] = [];
  try {
    const events = await openrouter.chat.send({ chatRequest: { ...chatRequest, stream: true } as never });
    for await (const chunk of events as AsyncIterable<RouterChunk>) chunks.push(chunk);
    return { chunks, error: null };
  } catch (error) {
    return { chunks, error: error as Error };
  }
}

/** What the chunks add up to: content, reasoning, calls assembled by index, the finish reason, usage. */
function assemble(chunks: RouterChunk[]) {
  let content = '';
  let reasoning = '';
  let finish: string | null = null;
  const calls: { name: string; arguments: string }[] = [];
  let pieces = 0;
  for (const chunk of chunks)
    for (const c of chunk.choices) {
      content += c.delta.content ?? '';
      reasoning += c.delta.reasoning ?? '';
      finish = c.finishReason ?? finish;
      for (const d of c.delta.toolCalls ?? []) {
        const slot = (calls[d.index] ??= { name: '', arguments: '' });
        slot.name += d.function?.name ?? '';
        slot.arguments += d.function?.arguments ?? '';
        pieces++;
      }
    }
  return { content, reasoning, finish, calls, pieces, usage: chunks.find((c) => c.usage)?.usage };
}

const routerWhole = async (chatRequest: Record<string, unknown>) =>
  (await openrouter.chat.send({ chatRequest: chatRequest as never })) as ChatResult;

describe('the openai SDK’s streaming helper against the direct service', () => {
  it('text: finalChatCompletion is the non-streamed answer, usage included', async () => {
    const request = { model: DIRECT_MODEL, messages: user('Explain what a baseline is, briefly') };
    const whole = await openai.chat.completions.create(request);
    const stream = openai.chat.completions.stream({ ...request, stream_options: { include_usage: true } });
    let deltas = 0;
    stream.on('content', () => deltas++);
    const done = await stream.finalChatCompletion();
    expect(deltas).toBeGreaterThan(2);
    expect(done.choices[0]!.message.content).toBe(whole.choices[0]!.message.content);
    expect(done.choices[0]!.finish_reason).toBe(whole.choices[0]!.finish_reason);
    expect(done.usage).toEqual(whole.usage);
  });

  it('several tool calls at once, their arguments split across chunks, are the non-streamed calls', async () => {
    const request = { model: DIRECT_MODEL, messages: user(BOTH), tools: TOOLS };
    const whole = await openai.chat.completions.create(request);
    const stream = openai.chat.completions.stream(request);
    let argumentDeltas = 0;
    stream.on('tool_calls.function.arguments.delta', () => argumentDeltas++);
    const done = await stream.finalChatCompletion();
    const fns = (m: OpenAI.ChatCompletionMessage) =>
      (m.tool_calls ?? []).map((c) =>
        c.type === 'function' ? [c.id, c.function.name, c.function.arguments] : null,
      );
    expect(fns(done.choices[0]!.message).map((f) => f![1])).toEqual(['search_docs', 'get_weather']);
    expect(fns(done.choices[0]!.message).map((f) => f!.slice(1))).toEqual(
      fns(whole.choices[0]!.message).map((f) => f!.slice(1)),
    );
    expect(argumentDeltas).toBeGreaterThan(4);
    expect(
      JSON.parse(
        done.choices[0]!.message.tool_calls![1]!.type === 'function'
          ? done.choices[0]!.message.tool_calls![1]!.function.arguments
          : '',
      ),
    ).toEqual({
      city: 'Zürich',
    });
    expect(done.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('a refusal and a structured output come out as they do whole', async () => {
    const refusal = openai.chat.completions.stream({
      model: DIRECT_MODEL,
      messages: user('[sim:fault=refusal] hi'),
    });
    let refusalDeltas = 0;
    refusal.on('refusal.delta', () => refusalDeltas++);
    const refused = await refusal.finalChatCompletion();
    expect(refusalDeltas).toBeGreaterThan(2);
    const whole = await openai.chat.completions.create({
      model: DIRECT_MODEL,
      messages: user('[sim:fault=refusal] hi'),
    });
    expect(refused.choices[0]!.message.refusal).toBe(whole.choices[0]!.message.refusal);
    const format = {
      type: 'json_schema' as const,
      json_schema: {
        name: 'order',
        strict: true,
        schema: {
          type: 'object',
          properties: { order_id: { type: 'integer' }, status: { type: 'string', enum: ['open', 'closed'] } },
          required: ['order_id', 'status'],
          additionalProperties: false,
        },
      },
    };
    const request = { model: DIRECT_MODEL, messages: user('Order 7 is open'), response_format: format };
    const structuredStream = openai.chat.completions.stream(request);
    let jsonDeltas = 0;
    structuredStream.on('content', () => jsonDeltas++);
    const structured = await structuredStream.finalChatCompletion();
    expect(jsonDeltas).toBeGreaterThan(1);
    const content = structured.choices[0]!.message.content!;
    expect(content).toBe((await openai.chat.completions.create(request)).choices[0]!.message.content);
    expect(JSON.parse(content)).toEqual({ order_id: 7, status: 'open' });
  });

  it('reads bytes split inside UTF-8 characters and many keep-alive comments as the same answer', async () => {
    const messages = user('Say exactly: Zürich is 🌧 today, naïve café');
    const whole = await openai.chat.completions.create({ model: DIRECT_MODEL, messages });
    for (const fault of ['split_utf8', 'keepalive']) {
      const done = await openai.chat.completions
        .stream(
          { model: DIRECT_MODEL, messages },
          { headers: { 'x-driftcheck-sim': JSON.stringify({ stream_fault: fault }) } },
        )
        .finalChatCompletion();
      expect(done.choices[0]!.message.content).toBe(whole.choices[0]!.message.content);
    }
  });

  it('an error event after content: the chunks before it, then an APIError with its message (create and the helper)', async () => {
    const messages = user('[sim:stream_fault=error_after_content] Explain what a baseline is');
    const stream = await openai.chat.completions.create({ model: DIRECT_MODEL, messages, stream: true });
    let content = '';
    const error = await (async () => {
      try {
        for await (const chunk of stream) content += chunk.choices[0]?.delta?.content ?? '';
        return null;
      } catch (e) {
        return e;
      }
    })();
    expect(content.length).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toMatch(/The server had an error while processing your request/);
    await expect(
      openai.chat.completions.stream({ model: DIRECT_MODEL, messages }).finalChatCompletion(),
    ).rejects.toBeInstanceOf(OpenAI.APIError);
  });

  it('a cut stream: the content before the cut, then the helper rejects with fetch’s "terminated"', async () => {
    const messages = user('[sim:stream_fault=cut] Explain what a baseline is');
    const stream = openai.chat.completions.stream({
      model: DIRECT_MODEL,
      messages,
      stream_options: { include_usage: true },
    });
    let content = '';
    stream.on('content', (delta) => (content += delta));
    const error = await stream.finalChatCompletion().then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(content.length).toBeGreaterThan(0);
    // The dropped connection surfaces as fetch's "terminated", wrapped in the SDK's own error (no status: not an APIError).
    expect(error).toBeInstanceOf(OpenAI.OpenAIError);
    expect(error).not.toBeInstanceOf(OpenAI.APIError);
    expect(error!.message).toBe('terminated');
  });
});

describe('@openrouter/sdk reading the router’s streams', () => {
  it('text: every chunk validates; content and the final usage chunk are the non-streamed answer’s', async () => {
    const request = { model: ROUTER_MODEL, messages: user('Explain what a baseline is, briefly') };
    const whole = await routerWhole(request);
    const { chunks, error } = await routerStream(request);
    expect(error).toBeNull();
    const got = assemble(chunks);
    expect(chunks.filter((c) => c.choices[0]?.delta.content).length).toBeGreaterThan(2);
    expect(got.content).toBe(whole.choices[0]!.message.content);
    expect(got.finish).toBe(whole.choices[0]!.finishReason);
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(got.usage).toEqual(whole.usage);
  });

  it('parallel tool calls assembled by index are the non-streamed calls', async () => {
    const request = { model: ROUTER_MODEL, messages: user(BOTH), tools: TOOLS };
    const whole = await routerWhole(request);
    const got = assemble((await routerStream(request)).chunks);
    expect(got.calls).toEqual(whole.choices[0]!.message.toolCalls!.map((c) => c.function));
    expect(got.calls).toHaveLength(2);
    expect(got.pieces).toBeGreaterThan(4);
    expect(got.finish).toBe('tool_calls');
  });

  it('a reasoning model: reasoning pieces first, adding up to the non-streamed reasoning and its signed details', async () => {
    const request = { model: KIMI, messages: user('Where is my order "A-1234"?'), tools: [LOOKUP] };
    const whole = await routerWhole(request);
    const { chunks } = await routerStream(request);
    const got = assemble(chunks);
    expect(got.reasoning).toBe(whole.choices[0]!.message.reasoning);
    const details = chunks.flatMap((c) => c.choices[0]?.delta.reasoningDetails ?? []);
    expect(details.length).toBeGreaterThan(2);
    expect(details.map((d) => d.text).join('')).toBe(got.reasoning);
    const signature = (whole.choices[0]!.message.reasoningDetails as { signature?: string }[])[0]!.signature;
    expect(details.filter((d) => d.signature).map((d) => d.signature)).toEqual([signature]);
    expect(got.calls).toEqual(whole.choices[0]!.message.toolCalls!.map((c) => c.function));
  });

  it('an error event after content is a validated chunk with the error and finish_reason "error"; the stream then ends', async () => {
    const { chunks, error } = await routerStream({
      model: ROUTER_MODEL,
      messages: user('[sim:stream_fault=error_after_content] Explain what a baseline is'),
    });
    expect(error).toBeNull();
    const last = chunks.at(-1)!;
    expect(last.error).toEqual(
      expect.objectContaining({ code: 502, message: 'Provider disconnected unexpectedly' }),
    );
    expect(last.choices[0]!.finishReason).toBe('error');
    expect(assemble(chunks.slice(0, -1)).content.length).toBeGreaterThan(0);
    expect(chunks.some((c) => c.usage)).toBe(false);
  });

  it('a cut stream: the chunks before the cut, then an error; no finish reason, no usage', async () => {
    const { chunks, error } = await routerStream({
      model: ROUTER_MODEL,
      messages: user('[sim:stream_fault=cut] Explain what a baseline is'),
    });
    expect(assemble(chunks).content.length).toBeGreaterThan(0);
    expect(assemble(chunks).finish).toBeNull();
    expect(chunks.some((c) => c.usage)).toBe(false);
    // fetch's own TypeError "terminated" (cause: the socket closed), passed through as it is.
    expect(error).toBeInstanceOf(TypeError);
    expect(error!.message).toBe('terminated');
  });

  it('skips keep-alive comments, and reads split bytes and a stream without usage', async () => {
    const messages = user('Say exactly: Zürich is 🌧 today, naïve café');
    const whole = await routerWhole({ model: ROUTER_MODEL, messages });
    for (const fault of ['keepalive', 'split_utf8', 'no_usage']) {
      const { chunks, error } = await routerStream({
        model: ROUTER_MODEL,
        messages: [{ role: 'user', content: `[sim:stream_fault=${fault}] ${messages[0]!.content}` }],
      });
      expect(error).toBeNull();
      expect(assemble(chunks).content).toBe(whole.choices[0]!.message.content);
      expect(chunks.some((c) => c.usage)).toBe(fault !== 'no_usage');
    }
  });
});
