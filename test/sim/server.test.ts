import { describe, expect, it } from 'vitest';
import { ROUTER_MODELS } from '../../src/sim/catalog.js';
import { SIM_CASE_HEADER } from '../../src/sim/protocol.js';
import { generateSimKey, type Simulator, startSimulator } from '../../src/sim/server.js';
import { baseUrl, call, complete, useSimulator } from './helpers.js';

let sim: Simulator;
const KEYS = useSimulator((started) => {
  sim = started;
});

describe('chat completions', () => {
  it('router: gen- id mirrored in X-Generation-Id, concrete model, provider and priced usage', async () => {
    const r = await complete(sim, 'router', KEYS.router, { content: 'Reply with exactly "PONG"' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.json.id).toMatch(/^gen-/);
    expect(r.headers['x-generation-id']).toBe(r.json.id);
    expect(r.json).toMatchObject({
      model: 'openai/gpt-4o-mini',
      provider: 'OpenAI',
      object: 'chat.completion',
    });
    expect(r.json.system_fingerprint).toMatch(/^fp_[0-9a-f]{8}$/);
    expect(r.json.choices).toEqual([
      {
        index: 0,
        logprobs: null,
        finish_reason: 'stop',
        native_finish_reason: 'stop',
        message: { role: 'assistant', content: 'PONG', refusal: null },
      },
    ]);
    const { prompt_tokens, completion_tokens, total_tokens, cost } = r.json.usage;
    expect(total_tokens).toBe(prompt_tokens + completion_tokens);
    const price = ROUTER_MODELS.find((m) => m.id === 'openai/gpt-4o-mini')!.pricing;
    expect(cost).toBeCloseTo(
      Number(price.prompt) * prompt_tokens + Number(price.completion) * completion_tokens,
      12,
    );
  });

  it('direct: OpenAI-compatible body, usage without cost, reasoning_effort accepted', async () => {
    const r = await complete(sim, 'direct', KEYS.direct, {
      body: { reasoning_effort: 'low', max_tokens: 1024 },
    });
    expect(r.status).toBe(200);
    expect(r.json.id).toMatch(/^chatcmpl-/);
    expect(r.json).toMatchObject({ object: 'chat.completion', model: 'kimi-k2-0905-preview' });
    expect(typeof r.json.created).toBe('number');
    expect(r.json.choices[0]).toMatchObject({
      index: 0,
      finish_reason: 'stop',
      message: { role: 'assistant' },
    });
    expect(Object.keys(r.json.usage).sort()).toEqual(['completion_tokens', 'prompt_tokens', 'total_tokens']);
  });

  it.each(['router', 'direct'] as const)(
    '%s: the same request twice gives the same body apart from id/created',
    async (kind) => {
      const body = {
        messages: [{ role: 'user', content: 'Explain how ocean tides happen' }],
        temperature: 0,
      };
      const strip = ({ id: _id, created: _created, ...rest }: Record<string, unknown>) => rest;
      const a = await complete(sim, kind, KEYS[kind], { body });
      const b = await complete(sim, kind, KEYS[kind], { body });
      expect(a.json.id).not.toBe(b.json.id);
      expect(strip(b.json)).toEqual(strip(a.json));
    },
  );

  it.each(['router', 'direct'] as const)(
    '%s: max_tokens cuts the answer and finishes with length',
    async (kind) => {
      const r = await complete(sim, kind, KEYS[kind], {
        content: 'Explain how ocean tides happen',
        body: { max_tokens: 2 },
      });
      expect(r.json.choices[0].finish_reason).toBe('length');
      expect(r.json.choices[0].message.content).toHaveLength(8);
      expect(r.json.usage.completion_tokens).toBe(2);
    },
  );

  it('different models word the same prompt differently', async () => {
    const contents = new Set<string>();
    for (const model of ['openai/gpt-4o-mini', 'openai/gpt-4o', 'anthropic/claude-sonnet-4.5']) {
      const r = await complete(sim, 'router', KEYS.router, {
        model,
        content: 'Summarise our shipping policy',
      });
      contents.add(r.json.choices[0].message.content);
    }
    expect(contents.size).toBe(3);
  });
});

describe('request validation', () => {
  it.each([
    ['not json', '{"model":', null],
    ['no model', { messages: [{ role: 'user', content: 'hi' }] }, 'model'],
    ['messages not an array', { model: 'm', messages: 'hi' }, 'messages'],
    ['empty messages', { model: 'm', messages: [] }, 'messages'],
    ['content not a string', { model: 'm', messages: [{ role: 'user', content: 5 }] }, 'messages[0]'],
    [
      'bad max_tokens',
      { model: 'm', messages: [{ role: 'user', content: 'hi' }], max_tokens: 0 },
      'max_tokens',
    ],
  ])('%s → 400 in each platform shape', async (_name, body, param) => {
    const r = await call(`${sim.routerBaseUrl}/chat/completions`, { key: KEYS.router, body });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 400, metadata: { error_type: 'invalid_request' } });
    const d = await call(`${sim.directBaseUrl}/chat/completions`, { key: KEYS.direct, body });
    expect(d.status).toBe(400);
    expect(d.json.error).toEqual({
      message: expect.any(String),
      type: 'invalid_request_error',
      param,
      code: null,
    });
  });

  it('unknown model: router 400 model_not_found, direct 404 "does not exist"', async () => {
    const r = await complete(sim, 'router', KEYS.router, { model: 'openai/gpt-9' });
    expect(r.status).toBe(400);
    expect(r.json.error.availability).toMatchObject({
      code: 'model_not_found',
      requested_models: ['openai/gpt-9'],
    });
    const d = await complete(sim, 'direct', KEYS.direct, { model: '~anthropic/claude-opus-latest' });
    expect(d.status).toBe(404);
    expect(d.json.error.message).toBe(
      'The model `~anthropic/claude-opus-latest` does not exist or you do not have access to it.',
    );
  });

  it('unknown path → 404 and wrong method → 405', async () => {
    expect((await call(`${sim.url}/api/v1/nothing`)).status).toBe(404);
    expect((await call(`${sim.url}/v1/nothing`)).json.error.type).toBe('invalid_request_error');
    const wrong = await call(`${sim.routerBaseUrl}/chat/completions`, { key: KEYS.router });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
  });
});

describe('authentication', () => {
  it.each([
    ['router', 'missing header', undefined],
    ['router', 'garbled header', 'Token abc'],
    ['router', 'empty bearer', 'Bearer '],
    ['router', 'short router-shaped key', 'Bearer sk-or-v1-short'],
    ['router', 'a direct key', `Bearer ${KEYS.direct}`],
    ['direct', 'missing header', undefined],
    ['direct', 'garbled header', KEYS.direct],
    ['direct', 'a router key', `Bearer ${KEYS.router}`],
  ] as const)('%s endpoint, %s → 401 in the platform shape', async (kind, _name, authorization) => {
    const r = await complete(sim, kind, null, { headers: authorization ? { authorization } : {} });
    expect(r.status).toBe(401);
    if (kind === 'router')
      expect(r.json.error).toMatchObject({ code: 401, metadata: { error_type: 'authentication' } });
    else
      expect(r.json.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'invalid_api_key',
        param: null,
      });
  });

  it.each(['router', 'direct'] as const)('%s masks the presented key in the message', async (kind) => {
    const other = kind === 'router' ? KEYS.direct : KEYS.router;
    const r = await complete(sim, kind, other);
    expect(r.text).not.toContain(other);
    expect(r.text).toContain(`${other.slice(0, 5)}****${other.slice(-4)}`);
  });

  it('echoKey echoes the full key; explicit key lists replace the shape rule', async () => {
    const allowed = generateSimKey('router');
    const strict = await startSimulator({ echoKey: true, routerKeys: [allowed], directKeys: [] });
    try {
      expect((await complete(strict, 'router', allowed)).status).toBe(200);
      const rejected = await complete(strict, 'router', KEYS.router);
      expect(rejected.status).toBe(401);
      expect(rejected.json.error.message).toContain(KEYS.router);
      expect((await complete(strict, 'direct', KEYS.direct)).status).toBe(401);
    } finally {
      await strict.close();
    }
  });
});

describe('catalog endpoints and stats', () => {
  it('GET /api/v1/models lists concrete and alias rows with per-token prices', async () => {
    const r = await call(`${sim.routerBaseUrl}/models`);
    expect(r.status).toBe(200);
    const ids = r.json.data.map((m: { id: string }) => m.id);
    expect(ids).toEqual(
      expect.arrayContaining(['openai/gpt-4o-mini', 'anthropic/claude-opus-4.5', '~openai/gpt-mini-latest']),
    );
    const mini = r.json.data.find((m: { id: string }) => m.id === 'openai/gpt-4o-mini');
    expect(mini).toMatchObject({
      canonical_slug: 'openai/gpt-4o-mini',
      pricing: { prompt: '0.00000015', request: '0' },
    });
    expect(mini.supported_parameters).toContain('max_tokens');
    const alias = r.json.data.find((m: { id: string }) => m.id === '~anthropic/claude-sonnet-latest');
    expect(alias.alias_target).toEqual({
      slug: 'anthropic/claude-sonnet-4.5',
      name: 'Anthropic: Claude Sonnet 4.5',
    });
  });

  it('GET /v1/models needs a direct key and lists the direct models', async () => {
    expect((await call(`${sim.directBaseUrl}/models`)).status).toBe(401);
    const r = await call(`${sim.directBaseUrl}/models`, { key: KEYS.direct });
    expect(r.json.object).toBe('list');
    expect(r.json.data.map((m: { id: string }) => m.id)).toEqual([
      'kimi-k2-0905-preview',
      'kimi-k2-turbo-preview',
      'moonshot-v1-8k',
      'o4-mini',
    ]);
    expect(r.json.data[0]).toMatchObject({ object: 'model', owned_by: 'moonshot' });
  });

  it('GET /api/v1/providers lists every provider with the fields the router documents (listProviders)', async () => {
    expect((await call(`${sim.routerBaseUrl}/providers`)).status).toBe(401);
    const r = await call(`${sim.routerBaseUrl}/providers`, { key: KEYS.router });
    expect(r.status).toBe(200);
    const slugs = r.json.data.map((p: { slug: string }) => p.slug);
    expect(slugs).toEqual(
      expect.arrayContaining(['openai', 'deepinfra', 'together', 'groq', 'amazon-bedrock']),
    );
    expect(new Set(slugs).size).toBe(slugs.length);
    // The OpenAPI item's required fields.
    for (const p of r.json.data)
      expect(Object.keys(p)).toEqual(expect.arrayContaining(['name', 'slug', 'privacy_policy_url']));
  });

  it("GET /api/v1/models/{author}/{slug}/endpoints lists the model's providers in the documented shape (listEndpoints); 404 for a model it does not have", async () => {
    const r = await call(`${sim.routerBaseUrl}/models/meta-llama/llama-3.3-70b-instruct/endpoints`, {
      key: KEYS.router,
    });
    expect(r.status).toBe(200);
    // ListEndpointsResponse's and PublicEndpoint's required fields.
    expect(Object.keys(r.json.data)).toEqual(
      expect.arrayContaining(['id', 'name', 'created', 'description', 'architecture', 'endpoints']),
    );
    expect(r.json.data.id).toBe('meta-llama/llama-3.3-70b-instruct');
    expect(r.json.data.endpoints.map((e: { tag: string }) => e.tag)).toEqual([
      'deepinfra',
      'together',
      'groq',
    ]);
    for (const e of r.json.data.endpoints)
      expect(Object.keys(e)).toEqual(
        expect.arrayContaining([
          'name',
          'model_id',
          'model_name',
          'context_length',
          'pricing',
          'provider_name',
          'tag',
          'quantization',
          'max_completion_tokens',
          'max_prompt_tokens',
          'supported_parameters',
          'uptime_last_30m',
          'uptime_last_5m',
          'uptime_last_1d',
          'supports_implicit_caching',
          'latency_last_30m',
          'throughput_last_30m',
        ]),
      );
    // Groq ignores response_format: its endpoint does not list it.
    const groq = r.json.data.endpoints.find((e: { tag: string }) => e.tag === 'groq');
    expect(groq.supported_parameters).not.toContain('response_format');
    // Each endpoint's throughput is its provider's rate at the median (DeepInfra has none of its
    // own: the model's), the slower percentiles lower.
    expect(r.json.data.endpoints.map((e: { throughput_last_30m: unknown }) => e.throughput_last_30m)).toEqual(
      [
        { p50: 100, p75: 90, p90: 70, p99: 35 },
        { p50: 150, p75: 135, p90: 105, p99: 53 },
        { p50: 300, p75: 270, p90: 210, p99: 105 },
      ],
    );
    const missing = await call(`${sim.routerBaseUrl}/models/openai/gpt-9/endpoints`, { key: KEYS.router });
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe(404);
  });

  it('counts requests per case header and serves the same stats over HTTP', async () => {
    const local = await startSimulator();
    try {
      expect(local.stats().lastReplyAt).toBeNull();
      const headers = { [SIM_CASE_HEADER]: 'refunds/window' };
      await complete(local, 'router', KEYS.router, { headers });
      await complete(local, 'direct', KEYS.direct, { headers });
      const before = Date.now();
      await complete(local, 'direct', null);
      const over = await call(`${local.url}/__sim/stats`);
      expect(over.json).toEqual({
        completions: 3,
        byCase: { 'refunds/window': 2 },
        byStatus: { '200': 2, '401': 1 },
        // When the last completion reply was written out: the bench's tail starts there.
        lastReplyAt: expect.any(Number),
      });
      expect(over.json.lastReplyAt).toBeGreaterThanOrEqual(before);
      expect(local.stats()).toEqual(over.json);
    } finally {
      await local.close();
    }
  });
});

describe('aliases', () => {
  it('move to the next newer model after aliasMoveAfter resolutions; the response names the concrete model', async () => {
    const moving = await startSimulator({ aliasMoveAfter: 2 });
    try {
      const target = async () =>
        (await call(`${moving.routerBaseUrl}/models`)).json.data.find(
          (m: { id: string }) => m.id === '~anthropic/claude-opus-latest',
        ).alias_target.slug;
      expect(await target()).toBe('anthropic/claude-opus-4.1');
      const models: string[] = [];
      for (let i = 0; i < 4; i++) {
        models.push(
          (await complete(moving, 'router', KEYS.router, { model: '~anthropic/claude-opus-latest' })).json
            .model,
        );
      }
      expect(models).toEqual([
        'anthropic/claude-opus-4.1',
        'anthropic/claude-opus-4.1',
        'anthropic/claude-opus-4.5',
        'anthropic/claude-opus-4.5',
      ]);
      expect(await target()).toBe('anthropic/claude-opus-4.5');
    } finally {
      await moving.close();
    }
  });

  it('sit on the newest family member when aliasMoveAfter is null', async () => {
    for (const [alias, concrete] of [
      ['~anthropic/claude-opus-latest', 'anthropic/claude-opus-4.5'],
      ['~anthropic/claude-sonnet-latest', 'anthropic/claude-sonnet-4.5'],
      ['~openai/gpt-mini-latest', 'openai/gpt-4o-mini'],
    ]) {
      const r = await complete(sim, 'router', KEYS.router, { model: alias });
      expect(r.json.model).toBe(concrete);
    }
  });
});

describe('spend limits', () => {
  it('creditAfter: the router key gets 402 after N successful completions; /key counts down', async () => {
    const limited = await startSimulator({ creditAfter: 2 });
    const key = generateSimKey('router');
    try {
      const info = async () => (await call(`${limited.routerBaseUrl}/key`, { key })).json.data;
      expect(await info()).toMatchObject({
        label: expect.any(String),
        limit: 2,
        limit_remaining: 2,
        usage: 0,
        is_free_tier: false,
      });
      expect((await complete(limited, 'router', key)).status).toBe(200);
      expect((await complete(limited, 'router', key)).status).toBe(200);
      const stopped = await complete(limited, 'router', key);
      expect(stopped.status).toBe(402);
      expect(stopped.json.error.metadata).toEqual({
        error_type: 'payment_required',
        limit_source: 'openrouter_key_limit',
      });
      expect((await info()).limit_remaining).toBe(0);
      expect((await complete(limited, 'router', generateSimKey('router'))).status).toBe(200);
      expect((await complete(limited, 'direct', KEYS.direct)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('budgetAfter: the direct key gets 429 project_spend_limit_exceeded after N successes', async () => {
    const limited = await startSimulator({ budgetAfter: 1 });
    try {
      expect((await complete(limited, 'direct', KEYS.direct)).status).toBe(200);
      const stopped = await complete(limited, 'direct', KEYS.direct);
      expect(stopped.status).toBe(429);
      expect(stopped.json.error).toMatchObject({
        type: 'insufficient_quota',
        code: 'project_spend_limit_exceeded',
      });
      expect((await complete(limited, 'router', KEYS.router)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('GET /api/v1/key reports no limit without creditAfter', async () => {
    const r = await call(`${baseUrl(sim, 'router')}/key`, { key: KEYS.router });
    expect(r.json.data).toMatchObject({ limit: null, limit_remaining: null, is_free_tier: false });
  });
});
