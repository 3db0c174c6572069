import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/sim/server.js';
import { complete, dataChunks, stringTool, useSimulator } from './helpers.js';

// The simulator's reasoning models, in the documented shapes: the direct service's o4-mini
// (OpenAI's kind) refuses max_tokens and thinks within max_completion_tokens; the router's
// Kimi K2 Thinking returns its reasoning and counts it (reasoning_tokens) in its usage; the
// reasoning_exhausted fault makes any model think through its whole cap; the router refuses
// a reasoning object with both an effort and a budget.

let sim: Simulator;
const KEYS = useSimulator((started) => {
  sim = started;
});

const think = (body: Record<string, unknown>, content = 'What is 2 + 2?') =>
  complete(sim, 'direct', KEYS.direct, { model: 'o4-mini', content, body });

describe('a direct reasoning model', () => {
  it('refuses a temperature other than 1 as OpenAI does: HTTP 400, unsupported_value; takes 1 and none', async () => {
    const r = await think({ max_completion_tokens: 1024, temperature: 0 });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      error: {
        message:
          "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
        type: 'invalid_request_error',
        param: 'temperature',
        code: 'unsupported_value',
      },
    });
    expect((await think({ max_completion_tokens: 1024, temperature: 1 })).status).toBe(200);
    expect((await think({ max_completion_tokens: 1024 })).status).toBe(200);
  });

  it('refuses max_tokens as OpenAI does: HTTP 400, unsupported_parameter, naming the parameter to use', async () => {
    const r = await think({ max_tokens: 1024 });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      error: {
        message:
          "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        type: 'invalid_request_error',
        param: 'max_tokens',
        code: 'unsupported_parameter',
      },
    });
  });

  it('thinks 64 to 256 tokens before answering, counted in its completion tokens and said apart; the same request thinks the same', async () => {
    const r = await think({ max_completion_tokens: 1024 });
    expect(r.status).toBe(200);
    const { completion_tokens, completion_tokens_details } = r.json.usage;
    const thinking = completion_tokens_details.reasoning_tokens as number;
    expect([64, 128, 192, 256]).toContain(thinking);
    expect(completion_tokens).toBeGreaterThan(thinking);
    expect(r.json.choices[0]).toMatchObject({
      finish_reason: 'stop',
      message: { content: expect.any(String) },
    });
    expect(r.json.choices[0].message.content).not.toBe('');
    // OpenAI returns no reasoning text.
    expect(r.json.choices[0].message).not.toHaveProperty('reasoning');
    expect((await think({ max_completion_tokens: 1024 })).json.usage).toEqual(r.json.usage);
  });

  it('runs out of a budget smaller than its thinking: cut off (length) before any content, every token a reasoning one', async () => {
    const r = await think({ max_completion_tokens: 40 });
    expect(r.json.choices[0]).toMatchObject({ finish_reason: 'length', message: { content: '' } });
    expect(r.json.usage).toMatchObject({
      completion_tokens: 40,
      completion_tokens_details: { reasoning_tokens: 40 },
    });
  });
});

describe('a router reasoning model', () => {
  const KIMI = 'moonshotai/kimi-k2-thinking';
  const ask = (body: Record<string, unknown> = {}, content = 'Name a colour.') =>
    complete(sim, 'router', KEYS.router, { model: KIMI, content, body });
  const tools = [stringTool('lookup_order', 'Look up an order by its id', 'order_id')];

  it('returns its reasoning and counts its tokens within completion_tokens, as the reasoning-tokens guide says', async () => {
    const r = await ask();
    expect(r.status).toBe(200);
    const { message, finish_reason } = r.json.choices[0];
    expect(finish_reason).toBe('stop');
    expect(message.reasoning).toMatch(/^The user asks: "Name a colour\."/);
    expect(message.reasoning_details).toEqual([
      expect.objectContaining({
        type: 'reasoning.text',
        text: message.reasoning,
        signature: expect.any(String),
      }),
    ]);
    const { completion_tokens, completion_tokens_details } = r.json.usage;
    const thinking = completion_tokens_details.reasoning_tokens as number;
    // Its tokens are those of the text it returns (four characters a token, as every count here).
    expect(thinking).toBe(Math.ceil(message.reasoning.length / 4));
    expect(completion_tokens).toBe(thinking + Math.ceil(message.content.length / 4));
    expect(r.json.usage.cost).toBeGreaterThan(0);
    // A model that does not reason says nothing of it.
    const plain = await complete(sim, 'router', KEYS.router, { content: 'Name a colour.' });
    expect(plain.json.choices[0].message).not.toHaveProperty('reasoning');
    expect(plain.json.usage).not.toHaveProperty('completion_tokens_details');
  });

  it('an error after content, not streamed: the reasoning and content the stream sends before its error, counted', async () => {
    const faulty = '[sim:stream_fault=error_after_content] Name a colour.';
    const r = await ask({}, faulty);
    expect(r.status).toBe(200);
    const { message, finish_reason } = r.json.choices[0];
    expect(finish_reason).toBe('error');
    // The same request streamed: what its deltas carry before the error event is the answer.
    const deltas = dataChunks((await ask({ stream: true }, faulty)).text)
      .filter((c) => !c.error)
      .flatMap((c) => c.choices.map((ch: { delta: Record<string, unknown> }) => ch.delta));
    const sent = (key: string) => deltas.map((d) => (typeof d[key] === 'string' ? d[key] : '')).join('');
    expect(sent('reasoning').length).toBeGreaterThan(0);
    expect(message.reasoning).toBe(sent('reasoning'));
    expect(message.content).toBe(sent('content'));
    const thinking = Math.ceil(message.reasoning.length / 4);
    expect(r.json.usage.completion_tokens_details).toEqual({ reasoning_tokens: thinking });
    expect(r.json.usage.completion_tokens).toBe(thinking + Math.ceil(message.content.length / 4));
  });

  it('before a turn of calls, reasons about the calls, and counts that', async () => {
    const r = await ask({ tools }, 'Where is my order "A-1234"?');
    const { message, finish_reason } = r.json.choices[0];
    expect(finish_reason).toBe('tool_calls');
    expect(message.reasoning).toMatch(/needs lookup_order/);
    expect(r.json.usage.completion_tokens_details.reasoning_tokens).toBe(
      Math.ceil(message.reasoning.length / 4),
    );
    expect(r.json.usage.completion_tokens).toBeGreaterThan(
      r.json.usage.completion_tokens_details.reasoning_tokens,
    );
  });

  it('a turn of calls cut at the cap: reasons about the calls it made, as far as they got, and counts that', async () => {
    const whole = await ask({ tools }, 'Where is my order "A-1234"?');
    const meant = whole.json.usage.completion_tokens_details.reasoning_tokens as number;
    expect(whole.json.choices[0].message.reasoning).toContain('A-1234');
    // Room for the call's name and a few characters of its arguments after the thinking.
    const r = await ask({ tools, max_tokens: meant + 5 }, 'Where is my order "A-1234"?');
    const { message, finish_reason } = r.json.choices[0];
    expect(finish_reason).toBe('length');
    const args = message.tool_calls[0].function.arguments as string;
    expect(args).not.toContain('A-1234');
    expect(message.reasoning).toMatch(/needs lookup_order/);
    expect(message.reasoning).toContain(`call it with ${args} and`);
    expect(message.reasoning_details[0].text).toBe(message.reasoning);
    expect(r.json.usage.completion_tokens_details.reasoning_tokens).toBe(
      Math.ceil(message.reasoning.length / 4),
    );
  });

  it('streamed: the reasoning comes first, in pieces that add up to it, and the usage chunk counts it the same', async () => {
    const whole = await ask();
    const streamed = await ask({ stream: true });
    expect(streamed.status).toBe(200);
    const chunks = dataChunks(streamed.text);
    const deltas = chunks.flatMap((c) => c.choices.map((ch: { delta: Record<string, unknown> }) => ch.delta));
    const reasoning = deltas.filter((d) => typeof d.reasoning === 'string');
    expect(reasoning.length).toBeGreaterThan(2);
    expect(reasoning.map((d) => d.reasoning).join('')).toBe(whole.json.choices[0].message.reasoning);
    const firstContent = deltas.findIndex((d) => typeof d.content === 'string' && d.content !== '');
    expect(deltas.findIndex((d) => typeof d.reasoning === 'string')).toBeLessThan(firstContent);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: whole.json.usage });
    expect(whole.json.usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
  });

  it('runs out of a cap smaller than its thinking: cut off (length) before any content, the thinking so far returned', async () => {
    const r = await ask({ max_tokens: 10 });
    expect(r.json.choices[0]).toMatchObject({ finish_reason: 'length', message: { content: '' } });
    expect(r.json.choices[0].message.reasoning).toMatch(/^The user asks: "Name a colour\."/);
    expect(r.json.usage).toMatchObject({
      completion_tokens: 10,
      completion_tokens_details: { reasoning_tokens: 10 },
    });
  });
});

describe('reasoning_exhausted', () => {
  it('a router model thinks through its cap: no content, the reasoning so far returned, every completion token a reasoning one', async () => {
    const r = await complete(sim, 'router', KEYS.router, {
      model: 'moonshotai/kimi-k2-thinking',
      content: 'Name a colour.',
      headers: { 'x-driftcheck-sim': JSON.stringify({ fault: 'reasoning_exhausted' }) },
      body: { max_tokens: 300 },
    });
    expect(r.status).toBe(200);
    const choice = r.json.choices[0];
    expect(choice).toMatchObject({ finish_reason: 'length', message: { content: '' } });
    expect(choice.message.reasoning).toMatch(/^The user asks: "Name a colour\."/);
    expect(choice.message.reasoning_details[0]).toMatchObject({ type: 'reasoning.text' });
    expect(r.json.usage).toMatchObject({
      completion_tokens: 300,
      completion_tokens_details: { reasoning_tokens: 300 },
    });
    expect(r.json.usage.cost).toBeGreaterThan(0);
  });
});

describe("the router's reasoning object", () => {
  it('is refused with both an effort and a budget, taken with either', async () => {
    const ask = (reasoning: unknown) =>
      complete(sim, 'router', KEYS.router, { model: 'moonshotai/kimi-k2-thinking', body: { reasoning } });
    const both = await ask({ effort: 'low', max_tokens: 100 });
    expect(both.status).toBe(400);
    expect(both.json.error.message).toMatch(/Only one of "reasoning\.effort" and "reasoning\.max_tokens"/);
    expect((await ask({ effort: 'loud' })).status).toBe(400);
    expect((await ask({ effort: 'low', exclude: true })).status).toBe(200);
    expect((await ask({ max_tokens: 100 })).status).toBe(200);
  });
});
