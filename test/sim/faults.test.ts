import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { SIM_CASE_HEADER, SIM_DIRECTIVE_HEADER } from '../../src/sim/protocol.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import type { SimFlavour } from '../../src/adapters/index.js';
import type { SimDirective, SimFault } from '../../src/suite/types.js';
import { baseUrl, complete, MODEL, useSimulator } from './helpers.js';

let sim: Simulator;
const KEYS = useSimulator((started) => {
  sim = started;
});

const withDirective = (
  kind: SimFlavour,
  directive: SimDirective,
  extra: { content?: string; caseId?: string } = {},
) =>
  complete(sim, kind, KEYS[kind], {
    content: extra.content,
    headers: {
      [SIM_DIRECTIVE_HEADER]: JSON.stringify(directive),
      ...(extra.caseId ? { [SIM_CASE_HEADER]: extra.caseId } : {}),
    },
  });

describe('router error faults: {error:{code, message, metadata:{error_type}}} with status = code', () => {
  it.each([
    ['auth', 401, { error_type: 'authentication' }, /Invalid API key provided: sk-or\*\*\*\*/],
    ['permission', 403, { error_type: 'permission_denied' }, /Forbidden/],
    [
      'insufficient_credit',
      402,
      { error_type: 'payment_required', limit_source: 'openrouter_key_limit' },
      /credit/,
    ],
    ['depleted', 402, { error_type: 'payment_required', limit_source: 'openrouter_credits' }, /balance/],
    [
      'budget_exceeded',
      403,
      {},
      /^Workspace monthly budget of \$500\.00 exceeded\. Contact your org admin\.$/,
    ],
    ['routing', 503, {}, /^No available model provider meets your routing requirements\.$/],
    ['rate_limited', 429, { error_type: 'rate_limit_exceeded' }, /Rate limit/],
    ['invalid_model', 400, {}, /is not a valid model ID/],
    ['server_error', 502, { error_type: 'provider_unavailable' }, /^Provider returned error$/],
  ] as const)('%s → %i', async (fault, status, metadata, message) => {
    const r = await withDirective('router', { fault });
    expect(r.status).toBe(status);
    expect(r.json.error.code).toBe(status);
    expect(r.json.error.message).toMatch(message);
    expect(r.json.error.metadata).toMatchObject(metadata);
    // The docs type most errors; the routing 503 is identified by availability.code instead.
    if (fault !== 'routing') expect(typeof r.json.error.metadata.error_type).toBe('string');
  });

  it('routing and invalid_model carry availability with the requested model', async () => {
    const routing = await withDirective('router', { fault: 'routing' });
    expect(routing.json.error.availability).toEqual({
      code: 'no_endpoints',
      retryable: false,
      requested_models: [MODEL.router],
    });
    const invalid = await withDirective('router', { fault: 'invalid_model' });
    expect(invalid.json.error.availability).toMatchObject({
      code: 'model_not_found',
      requested_models: [MODEL.router],
    });
  });
});

describe('direct error faults: {error:{message, type, param, code}}', () => {
  it.each([
    ['auth', 401, 'invalid_request_error', 'invalid_api_key', /^Incorrect API key provided: sk-/],
    [
      'permission',
      403,
      'permission_denied_error',
      null,
      /project\/organization configuration or network egress/,
    ],
    ['insufficient_credit', 429, 'insufficient_quota', 'credit_balance_exhausted', /credit balance/],
    ['budget_exceeded', 429, 'insufficient_quota', 'project_spend_limit_exceeded', /project daily budget/],
    [
      'depleted',
      429,
      'exceeded_current_quota_error',
      null,
      /^Your account is suspended due to insufficient balance/,
    ],
    ['routing', 400, 'invalid_request_error', null, /Routing does not apply/],
    ['rate_limited', 429, 'requests', 'rate_limit_exceeded', /Rate limit reached/],
    [
      'invalid_model',
      404,
      'invalid_request_error',
      'model_not_found',
      /does not exist or you do not have access to it/,
    ],
    ['server_error', 500, 'server_error', null, /error while processing your request/],
  ] as const)('%s → %i %s', async (fault, status, type, code, message) => {
    const r = await withDirective('direct', { fault });
    expect(r.status).toBe(status);
    const param = fault === 'invalid_model' ? 'model' : null;
    expect(r.json.error).toEqual({ message: expect.stringMatching(message), type, param, code });
    expect(Object.keys(r.json.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  });
});

describe('faults in a successful status', () => {
  it('router rate_limited: Retry-After and X-RateLimit headers', async () => {
    const r = await withDirective('router', { fault: 'rate_limited', retry_after_s: 3 });
    expect(r.headers['retry-after']).toBe('3');
    expect(r.headers['x-ratelimit-limit']).toBe('60');
    expect(r.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(r.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    const plain = await withDirective('router', { fault: 'rate_limited' });
    expect(plain.headers['retry-after']).toBe('1');
  });

  it("direct rate_limited: OpenAI's reset headers as durations and 'try again in Ns', no Retry-After", async () => {
    const r = await withDirective('direct', { fault: 'rate_limited', retry_after_s: 3 });
    expect(r.headers['retry-after']).toBeUndefined();
    expect(r.headers['x-ratelimit-reset-requests']).toBe('3s');
    expect(r.json.error.message).toMatch(/try again in 3s/);
  });

  it('router routing and in-flight credit with retry_after_s: the wait-and-retry variants', async () => {
    const routing = await withDirective('router', { fault: 'routing', retry_after_s: 5 });
    expect(routing.status).toBe(503);
    expect(routing.headers['retry-after']).toBe('5');
    const credit = await withDirective('router', { fault: 'insufficient_credit', retry_after_s: 2 });
    expect(credit.status).toBe(402);
    expect(credit.headers['retry-after']).toBe('2');
    expect(credit.json.error.metadata.limit_source).toBe('openrouter_in_flight_budget');
  });

  it.each(['router', 'direct'] as const)(
    '%s body_error: 200 with an error object and no choices',
    async (kind) => {
      const r = await withDirective(kind, { fault: 'body_error' });
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ model: MODEL[kind], object: 'chat.completion', choices: [] });
      expect(r.json.error).toEqual({
        code: 502,
        message: 'Provider returned error',
        metadata: { error_type: 'provider_overloaded', provider_code: 'overloaded' },
      });
    },
  );

  it.each(['router', 'direct'] as const)('%s empty_choices: 200, choices [], usage present', async (kind) => {
    const r = await withDirective(kind, { fault: 'empty_choices' });
    expect(r.status).toBe(200);
    expect(r.json.choices).toEqual([]);
    expect(r.json.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it.each(['router', 'direct'] as const)(
    '%s empty_content: one choice, "" and finish_reason null',
    async (kind) => {
      const r = await withDirective(kind, { fault: 'empty_content' });
      expect(r.json.choices).toHaveLength(1);
      expect(r.json.choices[0].message.content).toBe('');
      expect(r.json.choices[0].finish_reason).toBeNull();
      expect(r.json.usage.completion_tokens).toBe(0);
    },
  );

  it.each(['router', 'direct'] as const)(
    '%s length: the normal answer cut short, finish_reason length',
    async (kind) => {
      const content = 'Explain how ocean tides happen';
      const normal = await complete(sim, kind, KEYS[kind], { content });
      const cut = await withDirective(kind, { fault: 'length' }, { content });
      const full: string = normal.json.choices[0].message.content;
      expect(cut.json.choices[0].finish_reason).toBe('length');
      expect(full.startsWith(cut.json.choices[0].message.content)).toBe(true);
      expect(cut.json.choices[0].message.content.length).toBeLessThan(full.length);
    },
  );

  it.each(['router', 'direct'] as const)(
    '%s bad_response: 200 JSON content type, truncated body',
    async (kind) => {
      const r = await withDirective(kind, { fault: 'bad_response' });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.text.length).toBeGreaterThan(0);
      expect(r.json).toBeUndefined();
    },
  );

  it.each(['router', 'direct'] as const)(
    '%s reply, finish_reason and delay_ms override the answer',
    async (kind) => {
      const r = await withDirective(kind, {
        reply: 'scripted text',
        finish_reason: 'content_filter',
        delay_ms: 1,
      });
      expect(r.json.choices[0].message.content).toBe('scripted text');
      expect(r.json.choices[0].finish_reason).toBe('content_filter');
    },
  );
});

describe('broken connections', () => {
  it.each(['router', 'direct'] as const)(
    '%s network: the socket is dropped without a response',
    async (kind) => {
      const local = await startSimulator();
      try {
        await expect(
          complete(local, kind, KEYS[kind], { headers: { [SIM_DIRECTIVE_HEADER]: '{"fault":"network"}' } }),
        ).rejects.toThrow();
        expect(local.stats().byStatus).toEqual({ network: 1 });
      } finally {
        await local.close();
      }
    },
  );

  it.each(['router', 'direct'] as const)(
    '%s timeout: never answers, and close() still returns promptly',
    async (kind) => {
      const local = await startSimulator();
      const pending = complete(local, kind, KEYS[kind], {
        headers: { [SIM_DIRECTIVE_HEADER]: '{"fault":"timeout"}' },
      });
      const outcome = pending.then(
        () => 'answered',
        () => 'dropped',
      );
      while (local.stats().byStatus.timeout !== 1) await new Promise((r) => setTimeout(r, 5));
      await local.close();
      expect(await outcome).toBe('dropped');
    },
  );

  it('latencyMs delays every completion; close() cancels a pending delayed reply', async () => {
    const slow = await startSimulator({ latencyMs: 60_000 });
    const outcome = complete(slow, 'router', KEYS.router).then(
      () => 'answered',
      () => 'dropped',
    );
    while (slow.stats().completions !== 1) await new Promise((r) => setTimeout(r, 5));
    await slow.close();
    expect(await outcome).toBe('dropped');
    expect(slow.stats().byStatus).toEqual({});
  });

  it('a client that gives up on a hung request frees it', async () => {
    const local = await startSimulator();
    const controller = new AbortController();
    const pending = request(`${baseUrl(local, 'router')}/chat/completions`, {
      method: 'POST',
      signal: controller.signal,
      headers: { authorization: `Bearer ${KEYS.router}`, [SIM_DIRECTIVE_HEADER]: '{"fault":"timeout"}' },
      body: JSON.stringify({ model: MODEL.router, messages: [{ role: 'user', content: 'hi' }] }),
    });
    while (local.stats().byStatus.timeout !== 1) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expect(pending).rejects.toThrow();
    await local.close();
  });
});

describe('fail_times, markers and invalid directives', () => {
  it.each(['router', 'direct'] as const)(
    '%s: the fault fires for the first N sends of a case, then it answers',
    async (kind) => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (await withDirective(kind, { fault: 'server_error', fail_times: 2 }, { caseId: `retry-${kind}` }))
            .status,
        );
      }
      expect(statuses).toEqual([kind === 'router' ? 502 : 500, kind === 'router' ? 502 : 500, 200, 200]);
      const other = await withDirective(
        kind,
        { fault: 'server_error', fail_times: 2 },
        { caseId: `other-${kind}` },
      );
      expect(other.status).not.toBe(200);
    },
  );

  it('without a case header the conversation identifies the case', async () => {
    const send = (content: string) =>
      withDirective('router', { fault: 'rate_limited', fail_times: 1 }, { content });
    expect((await send('conversation A')).status).toBe(429);
    expect((await send('conversation A')).status).toBe(200);
    expect((await send('conversation B')).status).toBe(429);
  });

  it.each<[SimFlavour, SimFault, number]>([
    ['router', 'rate_limited', 429],
    ['direct', 'depleted', 429],
    ['router', 'empty_choices', 200],
  ])('%s: an in-prompt marker triggers %s', async (kind, fault, status) => {
    const r = await complete(sim, kind, KEYS[kind], {
      content: `Say hi [sim:fault=${fault},retry_after_s=2]`,
    });
    expect(r.status).toBe(status);
  });

  it('markers are stripped before answering', async () => {
    const r = await complete(sim, 'router', KEYS.router, {
      content: 'Reply with exactly "OK" [sim:finish_reason=stop]',
    });
    expect(r.json.choices[0].message.content).toBe('OK');
  });

  it.each(['router', 'direct'] as const)('%s: an invalid directive header → 400 saying why', async (kind) => {
    const r = await complete(sim, kind, KEYS[kind], { headers: { [SIM_DIRECTIVE_HEADER]: '{"fault":' } });
    expect(r.status).toBe(400);
    expect(r.text).toContain('Invalid simulator directive');
  });
});
