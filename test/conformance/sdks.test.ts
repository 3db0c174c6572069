import { OpenRouter } from '@openrouter/sdk';
import type { ChatResult } from '@openrouter/sdk/models';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSimKey, type Simulator, startSimulator } from '../../src/sim/server.js';
import type { SimFault } from '../../src/suite/types.js';

// The official client SDKs, installed from the registry, are the referees of the simulator's
// wire format: they must parse every success (the OpenRouter SDK validates each response
// with its zod schemas), and raise their own typed error for every failure.

let sim: Simulator;
let openai: OpenAI;
let openrouter: OpenRouter;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  openai = new OpenAI({
    apiKey: generateSimKey('direct'),
    baseURL: `${sim.url}/v1`,
    maxRetries: 0,
    timeout: 1_500,
  });
  openrouter = new OpenRouter({
    apiKey: generateSimKey('router'),
    serverURL: `${sim.url}/api/v1`,
    retryConfig: { strategy: 'none' },
    timeoutMs: 1_500,
  });
});
afterAll(() => sim.close());

const DIRECT_MODEL = 'kimi-k2-0905-preview';
const ROUTER_MODEL = 'openai/gpt-4o-mini';
const ask = (text: string) => [{ role: 'user' as const, content: text }];
const direct = (text: string, extra: Record<string, unknown> = {}) =>
  openai.chat.completions.create({
    model: DIRECT_MODEL,
    messages: ask(text),
    ...extra,
  } as never) as Promise<OpenAI.ChatCompletion>;
/** A non-streamed router completion, as the SDK validated it. */
const router = async (text: string) =>
  (await openrouter.chat.send({ chatRequest: { model: ROUTER_MODEL, messages: ask(text) } })) as ChatResult;
const errorName = async (call: Promise<unknown>): Promise<string> => {
  try {
    await call;
    return 'none';
  } catch (error) {
    return (error as Error).constructor.name;
  }
};

describe('the official openai SDK against the direct service', () => {
  it('parses an answer, with its fingerprint and usage', async () => {
    const r = await direct('Say exactly: ok');
    expect(r.choices[0]!.message.content).toEqual(expect.any(String));
    expect(r.choices[0]!.finish_reason).toBe('stop');
    expect(r.system_fingerprint).toMatch(/^fp_/);
    expect(r.usage!.total_tokens).toBe(r.usage!.prompt_tokens + r.usage!.completion_tokens);
  });

  it.each<[SimFault, string, unknown]>([
    ['length', 'finish_reason', 'length'],
    ['content_filter', 'finish_reason', 'content_filter'],
  ])('parses the %s shape', async (fault, field, value) => {
    const r = await direct(`[sim:fault=${fault}] hi`);
    expect((r.choices[0] as unknown as Record<string, unknown>)[field]).toBe(value);
  });

  it('parses a refusal: no content, the text in message.refusal', async () => {
    const r = await direct('[sim:fault=refusal] hi');
    expect(r.choices[0]!.message.content).toBeNull();
    expect(r.choices[0]!.message.refusal).toMatch(/can't help/);
  });

  it('accepts the request shapes the API accepts: content parts, a tool-call turn, max_completion_tokens', async () => {
    const r = await openai.chat.completions.create({
      model: DIRECT_MODEL,
      max_completion_tokens: 64,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What is the weather?' }] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ],
    });
    expect(r.choices[0]!.message.content).toEqual(expect.any(String));
  });

  it('streams a real event stream: the same answer, a usage chunk, [DONE]', async () => {
    const whole = await direct('Say exactly: streamed');
    const stream = await openai.chat.completions.create({
      model: DIRECT_MODEL,
      messages: ask('Say exactly: streamed'),
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: unknown = null;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(whole.choices[0]!.message.content);
    expect(usage).toEqual(whole.usage);
  });

  it('rejects a reasoning_effort the API does not know, as the API does', async () => {
    await expect(direct('hi', { reasoning_effort: 'bogus' })).rejects.toMatchObject({
      status: 400,
      param: 'reasoning_effort',
    });
    await expect(direct('hi', { reasoning_effort: 'low' })).resolves.toBeDefined();
  });

  it.each<[SimFault, string]>([
    ['auth', 'AuthenticationError'],
    ['permission', 'PermissionDeniedError'],
    ['rate_limited', 'RateLimitError'],
    ['insufficient_credit', 'RateLimitError'],
    ['budget_exceeded', 'RateLimitError'],
    ['depleted', 'RateLimitError'],
    ['invalid_model', 'NotFoundError'],
    ['server_error', 'InternalServerError'],
    ['timeout', 'APIConnectionTimeoutError'],
    ['network', 'APIConnectionError'],
  ])('%s raises %s', async (fault, name) => {
    expect(await errorName(direct(`[sim:fault=${fault}] hi`))).toBe(name);
  });

  it('an unknown path is a 404 the SDK raises as NotFoundError, not a model error', async () => {
    const wrong = new OpenAI({ apiKey: generateSimKey('direct'), baseURL: `${sim.url}/v2`, maxRetries: 0 });
    await expect(
      wrong.chat.completions.create({ model: DIRECT_MODEL, messages: ask('hi') }),
    ).rejects.toMatchObject({ status: 404, constructor: OpenAI.NotFoundError });
  });
});

describe('the official OpenRouter SDK against the routing service', () => {
  it('validates an answer against its response schema, fingerprint included', async () => {
    const r = await router('Say exactly: ok');
    expect(r.choices[0]!.message.content).toEqual(expect.any(String));
    expect(r.systemFingerprint).toMatch(/^fp_/);
    expect(r.model).toBe(ROUTER_MODEL);
  });

  it.each<[SimFault, string | null]>([
    ['length', 'length'],
    ['content_filter', 'content_filter'],
    ['refusal', 'stop'],
  ])('validates the %s shape', async (fault, finish) => {
    const r = await router(`[sim:fault=${fault}] hi`);
    expect(r.choices[0]!.finishReason).toBe(finish);
  });

  it('validates the model list and the key info against its schemas', async () => {
    const page = await openrouter.models.list();
    const models = (page as unknown as { result: { data: { id: string; aliasTarget?: { slug: string } }[] } })
      .result.data;
    expect(models.some((m) => m.id === ROUTER_MODEL)).toBe(true);
    expect(models.find((m) => m.id.startsWith('~'))?.aliasTarget?.slug).toEqual(expect.any(String));
    const key = await openrouter.apiKeys.getCurrentKeyMetadata();
    expect(key.data.limitRemaining === null || typeof key.data.limitRemaining === 'number').toBe(true);
  });

  it.each<[SimFault, string]>([
    ['auth', 'UnauthorizedResponseError'],
    ['permission', 'ForbiddenResponseError'],
    ['insufficient_credit', 'PaymentRequiredResponseError'],
    ['depleted', 'PaymentRequiredResponseError'],
    ['budget_exceeded', 'ForbiddenResponseError'],
    ['routing', 'ServiceUnavailableResponseError'],
    ['rate_limited', 'TooManyRequestsResponseError'],
    ['invalid_model', 'BadRequestResponseError'],
    ['server_error', 'BadGatewayResponseError'],
    ['timeout', 'RequestTimeoutError'],
    ['network', 'ConnectionError'],
  ])('%s raises %s', async (fault, name) => {
    expect(await errorName(router(`[sim:fault=${fault}] hi`))).toBe(name);
  });
});

describe('what the SDKs let through: failures inside a successful status', () => {
  // Neither SDK raises on these (their status is 200): driftcheck's own classification is
  // what catches them (body_error, empty_choices, empty_content; see test/service/normalize).
  it.each<SimFault>(['body_error', 'empty_choices', 'empty_content'])(
    '%s parses without an error in both',
    async (fault) => {
      expect(await errorName(direct(`[sim:fault=${fault}] hi`))).toBe('none');
      expect(await errorName(router(`[sim:fault=${fault}] hi`))).toBe('none');
    },
  );
});
