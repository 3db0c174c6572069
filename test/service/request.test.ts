import { describe, expect, it } from 'vitest';
import { buildChatRequest, chatCompletionsUrl, chatRequestBuilder } from '../../src/service/request.js';
import { SIM_CASE_HEADER, SIM_DIRECTIVE_HEADER, simRequestHeaders } from '../../src/sim/protocol.js';
import type { CompletionRequest } from '../../src/service/types.js';
import { directKey, makeService, routerKey } from './helpers.js';

const request: CompletionRequest = {
  model: 'openai/gpt-4o-mini',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hi' },
  ],
  params: {},
};

describe('buildChatRequest', () => {
  it('posts to base_url/chat/completions with bearer auth and JSON headers', () => {
    const built = buildChatRequest(
      makeService('router', 'https://openrouter.ai/api/v1/'),
      request,
      routerKey,
    );
    expect(built.url).toBe('https://openrouter.ai/api/v1/chat/completions');
    expect(built.headers).toMatchObject({
      authorization: `Bearer ${routerKey}`,
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(JSON.parse(built.body)).toEqual({
      model: request.model,
      messages: request.messages,
      max_tokens: 512,
    });
  });

  it.each([
    ['router', undefined],
    ['direct', 'low'],
  ] as const)('sends reasoning_effort only to direct services (%s)', (kind, expected) => {
    const built = buildChatRequest(
      makeService(kind, 'https://example.com/v1'),
      {
        ...request,
        params: { reasoning_effort: 'low', max_tokens: 64, temperature: 0, top_p: 0.5, seed: 7 },
      },
      directKey,
    );
    const body = JSON.parse(built.body);
    expect(body.reasoning_effort).toBe(expected);
    expect(body).toMatchObject({ max_tokens: 64, temperature: 0, top_p: 0.5, seed: 7 });
  });

  it.each([
    ['router', { only: ['openai'], allow_fallbacks: false }],
    ['direct', undefined],
  ] as const)("sends a suite's provider pin to the router only (%s)", (kind, expected) => {
    const built = buildChatRequest(
      makeService(kind, 'https://example.com/v1'),
      { ...request, params: { provider: { only: ['openai'], allow_fallbacks: false } } },
      kind === 'router' ? routerKey : directKey,
    );
    expect(JSON.parse(built.body).provider).toEqual(expected);
  });

  it.each(['router', 'direct'] as const)(
    "carries the request in the services' own shape (%s): every message field and every other parameter",
    (kind) => {
      // What tools will need: an assistant tool call, its result, and tools/tool_choice in params.
      const messages = [
        { role: 'user', content: 'Weather in Paris?', name: 'ana' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{}' } }],
        },
        { role: 'user', content: '18 °C', tool_call_id: 'call_1' },
      ] satisfies CompletionRequest['messages'];
      const params = {
        tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
        tool_choice: 'auto',
        response_format: { type: 'json_object' },
        reasoning_effort: 'low',
        provider: { only: ['openai'] },
      };
      const body = JSON.parse(
        buildChatRequest(
          makeService(kind, 'https://example.com/v1'),
          { ...request, messages, params },
          directKey,
        ).body,
      );
      expect(body.messages).toEqual(messages);
      expect(body).toMatchObject({
        tools: params.tools,
        tool_choice: 'auto',
        response_format: params.response_format,
      });
      // Each kind gets its own parameter and not the other's; the router, with tools, only
      // providers that support every parameter (the suite's own preferences kept beside it).
      expect([body.provider, body.reasoning_effort]).toEqual(
        kind === 'router'
          ? [{ ...params.provider, require_parameters: true }, undefined]
          : [undefined, 'low'],
      );
    },
  );

  it('adds attribution headers but never lets them replace auth, framing, cache or sim headers', () => {
    const service = makeService('router', 'https://openrouter.ai/api/v1', {
      headers: {
        'HTTP-Referer': 'https://example.com',
        'X-Title': 'driftcheck-test',
        AUTHORIZATION: 'Bearer stolen',
        'Content-Type': 'text/plain',
        'X-OpenRouter-Cache': 'true',
        'x-openrouter-cache-ttl': '600',
        [SIM_DIRECTIVE_HEADER.toUpperCase()]: '{"fault":"auth"}',
      },
    });
    const { headers } = buildChatRequest(service, request, routerKey);
    expect(headers).toEqual({
      'HTTP-Referer': 'https://example.com',
      'X-Title': 'driftcheck-test',
      authorization: `Bearer ${routerKey}`,
      'content-type': 'application/json',
      accept: 'application/json',
    });
  });

  it('sends the sim directive and case key only to a loopback base URL, and only when the caller adds them', () => {
    const service = makeService('router', 'http://127.0.0.1:1/v1');
    const simRequest = { ...request, sim: { fault: 'auth' as const }, case_key: 'refunds/window#1' };
    const real = buildChatRequest(service, simRequest, routerKey);
    expect(real.headers[SIM_DIRECTIVE_HEADER]).toBeUndefined();
    expect(real.headers[SIM_CASE_HEADER]).toBeUndefined();
    const sim = buildChatRequest(service, simRequest, routerKey, {
      extraHeaders: simRequestHeaders(service, simRequest),
    });
    expect(JSON.parse(sim.headers[SIM_DIRECTIVE_HEADER]!)).toEqual({ fault: 'auth' });
    expect(sim.headers[SIM_CASE_HEADER]).toBe('refunds/window#1');
    const remote = makeService('router', 'https://openrouter.ai/api/v1');
    expect(simRequestHeaders(remote, simRequest)).toEqual({});
  });

  it('keeps non-ASCII directive text as JSON escapes, so the header stays valid and decodes back', () => {
    const service = makeService('router', 'http://127.0.0.1:1/v1');
    const reply = 'café 🙂 日本';
    const asked = { ...request, sim: { reply }, case_key: 'süite/ça' };
    const { headers } = buildChatRequest(service, asked, routerKey, {
      extraHeaders: simRequestHeaders(service, asked),
    });
    expect(headers[SIM_DIRECTIVE_HEADER]).toMatch(/^[\x20-\x7e]+$/);
    expect(JSON.parse(headers[SIM_DIRECTIVE_HEADER]!)).toEqual({ reply });
    expect(headers[SIM_CASE_HEADER]).toBe('s%C3%BCite/%C3%A7a');
  });

  it('joins the path without doubling slashes', () => {
    expect(chatCompletionsUrl('https://api.moonshot.ai/v1')).toBe(
      'https://api.moonshot.ai/v1/chat/completions',
    );
    expect(chatCompletionsUrl('https://api.moonshot.ai/v1//')).toBe(
      'https://api.moonshot.ai/v1/chat/completions',
    );
  });

  it('one builder serves every call of a service: each params object is sent as its own, and extra headers stay per call', () => {
    const build = chatRequestBuilder(makeService('router', 'https://example.com/v1'), routerKey);
    const suiteA = { temperature: 0, reasoning_effort: 'low' };
    const suiteB = { seed: 3, provider: { only: ['groq'] } };
    const bodies = [suiteA, suiteB, suiteA].map((params) => JSON.parse(build({ ...request, params }).body));
    expect(bodies).toEqual([
      { model: request.model, messages: request.messages, max_tokens: 512, temperature: 0 },
      {
        model: request.model,
        messages: request.messages,
        max_tokens: 512,
        seed: 3,
        provider: { only: ['groq'] },
      },
      { model: request.model, messages: request.messages, max_tokens: 512, temperature: 0 },
    ]);
    const first = build(request, { 'x-driftcheck-case': 'a' });
    const second = build(request);
    expect(first.headers['x-driftcheck-case']).toBe('a');
    expect(second.headers).not.toHaveProperty('x-driftcheck-case');
    expect(second.target.href).toBe('https://example.com/v1/chat/completions');
  });
});
