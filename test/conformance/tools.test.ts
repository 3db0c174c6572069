import { OpenRouter } from '@openrouter/sdk';
import type { ChatResult } from '@openrouter/sdk/models';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSimKey, type Simulator, startSimulator } from '../../src/sim/server.js';

// The official SDKs judge the simulator's tool calls and structured outputs as they judge
// its plain answers (sdks.test.ts): the OpenRouter SDK validates every response and stream
// chunk with its zod schemas; the openai SDK parses strict tool arguments and json_schema
// content itself (`chat.completions.parse`) and accumulates streamed tool-call deltas.

let sim: Simulator;
let openai: OpenAI;
let openrouter: OpenRouter;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 1 });
  openai = new OpenAI({ apiKey: generateSimKey('direct'), baseURL: `${sim.url}/v1`, maxRetries: 0 });
  openrouter = new OpenRouter({
    apiKey: generateSimKey('router'),
    serverURL: `${sim.url}/api/v1`,
    retryConfig: { strategy: 'none' },
  });
});
afterAll(() => sim.close());

const DIRECT_MODEL = 'kimi-k2-0905-preview';
const ROUTER_MODEL = 'meta-llama/llama-3.3-70b-instruct';
const WEATHER = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  required: ['city', 'unit'],
  additionalProperties: false,
};
const DOCS = {
  type: 'object',
  properties: { query: { type: 'string' } },
  required: ['query'],
  additionalProperties: false,
};
const tool = (name: string, description: string, parameters: object) => ({
  type: 'function' as const,
  function: { name, description, parameters: parameters as Record<string, unknown>, strict: true },
});
const TOOLS = [
  tool('get_weather', 'Current weather for a city', WEATHER),
  tool('search_docs', 'Search the documentation', DOCS),
];
const BOTH = 'Search the docs for umbrellas and tell me the weather in Oslo in celsius';
const ORDER = {
  type: 'object',
  properties: { order_id: { type: 'integer' }, status: { type: 'string', enum: ['open', 'closed'] } },
  required: ['order_id', 'status'],
  additionalProperties: false,
};
const user = (content: string) => [{ role: 'user' as const, content }];

describe('the openai SDK against the direct service', () => {
  it('parses tool calls with chat.completions.parse: parsed_arguments of strict tools', async () => {
    const r = await openai.chat.completions.parse({
      model: DIRECT_MODEL,
      messages: user(BOTH),
      tools: TOOLS,
    });
    const choice = r.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const calls = choice.message.tool_calls!.map((c) => (c.type === 'function' ? c.function : null));
    expect(calls.map((c) => [c!.name, c!.parsed_arguments])).toEqual([
      // The query is the prompt's content words that are not the tool's own (the stated rule).
      ['search_docs', { query: 'umbrellas weather oslo celsius' }],
      ['get_weather', { city: 'Oslo', unit: 'celsius' }],
    ]);
  });

  it('parses a json_schema answer into message.parsed', async () => {
    const r = await openai.chat.completions.parse({
      model: DIRECT_MODEL,
      messages: user('Order 42 is closed'),
      response_format: { type: 'json_schema', json_schema: { name: 'order', strict: true, schema: ORDER } },
    });
    expect(r.choices[0]!.message.parsed).toEqual({ order_id: 42, status: 'closed' });
  });

  it('accumulates streamed tool-call deltas into the same calls (ChatCompletionStream)', async () => {
    const whole = await openai.chat.completions.create({
      model: DIRECT_MODEL,
      messages: user(BOTH),
      tools: TOOLS,
    });
    const stream = openai.chat.completions.stream({
      model: DIRECT_MODEL,
      messages: user(BOTH),
      tools: TOOLS,
    });
    const done = await stream.finalChatCompletion();
    const fns = (calls: OpenAI.ChatCompletionMessageToolCall[] | undefined) =>
      (calls ?? []).map((c) => (c.type === 'function' ? [c.function.name, c.function.arguments] : null));
    expect(done.choices[0]!.finish_reason).toBe('tool_calls');
    expect(fns(done.choices[0]!.message.tool_calls)).toEqual(fns(whole.choices[0]!.message.tool_calls));
  });

  it('runs a follow-up turn with the tool result', async () => {
    const first = await openai.chat.completions.create({
      model: DIRECT_MODEL,
      messages: user(BOTH),
      tools: TOOLS,
    });
    const calls = first.choices[0]!.message.tool_calls!;
    const r = await openai.chat.completions.create({
      model: DIRECT_MODEL,
      tools: TOOLS,
      messages: [
        ...user(BOTH),
        first.choices[0]!.message,
        ...calls.map((c) => ({ role: 'tool' as const, tool_call_id: c.id, content: `result of ${c.id}` })),
      ],
    });
    expect(r.choices[0]!.finish_reason).toBe('stop');
    expect(r.choices[0]!.message.content).toContain(`result of ${calls[0]!.id}`);
  });
});

describe('the OpenRouter SDK against the routing service', () => {
  it('validates a tool-calling answer (toolCalls, finishReason tool_calls)', async () => {
    const r = (await openrouter.chat.send({
      chatRequest: { model: ROUTER_MODEL, messages: user(BOTH), tools: TOOLS, parallelToolCalls: false },
    })) as ChatResult;
    const choice = r.choices[0]!;
    expect(choice.finishReason).toBe('tool_calls');
    expect(
      choice.message.toolCalls!.map((c) => [c.type, c.function.name, JSON.parse(c.function.arguments)]),
    ).toEqual([['function', 'search_docs', { query: 'umbrellas weather oslo celsius' }]]);
  });

  it('validates a json_schema answer sent with require_parameters', async () => {
    const r = (await openrouter.chat.send({
      chatRequest: {
        model: ROUTER_MODEL,
        messages: user('Order 7 is open'),
        responseFormat: { type: 'json_schema', jsonSchema: { name: 'order', strict: true, schema: ORDER } },
        provider: { requireParameters: true },
      },
    })) as ChatResult;
    expect(JSON.parse(r.choices[0]!.message.content as string)).toEqual({ order_id: 7, status: 'open' });
  });

  it('validates every streamed chunk, whose tool-call deltas add up to the calls', async () => {
    const whole = (await openrouter.chat.send({
      chatRequest: { model: ROUTER_MODEL, messages: user(BOTH), tools: TOOLS },
    })) as ChatResult;
    const stream = await openrouter.chat.send({
      chatRequest: { model: ROUTER_MODEL, messages: user(BOTH), tools: TOOLS, stream: true },
    });
    const built: { name: string; arguments: string }[] = [];
    let finish: string | null | undefined;
    for await (const chunk of stream as AsyncIterable<{
      choices: {
        finishReason?: string | null;
        delta: { toolCalls?: { index: number; function?: { name?: string; arguments?: string } }[] };
      }[];
    }>) {
      for (const c of chunk.choices) {
        finish = c.finishReason ?? finish;
        for (const d of c.delta.toolCalls ?? []) {
          const slot = (built[d.index] ??= { name: '', arguments: '' });
          slot.name += d.function?.name ?? '';
          slot.arguments += d.function?.arguments ?? '';
        }
      }
    }
    expect(finish).toBe('tool_calls');
    expect(built).toEqual(whole.choices[0]!.message.toolCalls!.map((c) => c.function));
  });

  it('raises its 400 error for a malformed tools array', async () => {
    const bad = openrouter.chat.send({
      chatRequest: {
        model: ROUTER_MODEL,
        messages: user('hi'),
        tools: [{ type: 'function', function: { name: 'has spaces', parameters: {} } }],
      },
    });
    const error = await bad.then(
      () => null,
      (e: unknown) => e as Error & { statusCode?: number },
    );
    expect(error?.constructor.name).toBe('BadRequestResponseError');
    expect(error?.statusCode).toBe(400);
  });
});
