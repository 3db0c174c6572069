import { describe, expect, it } from 'vitest';
import { SIM_DIRECTIVE_HEADER } from '../../src/sim/protocol.js';
import type { Simulator } from '../../src/sim/server.js';
import { complete, useSimulator } from './helpers.js';

let sim: Simulator;
const KEYS = useSimulator((started) => {
  sim = started;
});

const LLAMA = 'meta-llama/llama-3.3-70b-instruct';
const PROMPT = 'Why is the sky blue?';

/** One router call for the multi-provider model, with routing preferences and tonight's pick. */
function routed(provider?: Record<string, unknown>, tonight?: string) {
  return complete(sim, 'router', KEYS.router, {
    model: LLAMA,
    content: PROMPT,
    ...(provider ? { body: { provider } } : {}),
    ...(tonight ? { headers: { [SIM_DIRECTIVE_HEADER]: JSON.stringify({ provider: tonight }) } } : {}),
  });
}

describe('one model, several providers (guides/routing/provider-selection)', () => {
  it('serves from the default provider, and another provider answers in its own words', async () => {
    const usual = await routed();
    const moved = await routed(undefined, 'Together');
    expect(usual.status).toBe(200);
    expect(usual.json.provider).toBe('DeepInfra');
    expect(moved.json.provider).toBe('Together');
    expect(moved.json.system_fingerprint).not.toBe(usual.json.system_fingerprint);
    expect(moved.json.choices[0].message.content).not.toBe(usual.json.choices[0].message.content);
  });

  it('follows only, ignore, order and quantizations, by slug or by name', async () => {
    expect((await routed({ only: ['together'] })).json.provider).toBe('Together');
    expect((await routed({ only: ['Groq'] })).json.provider).toBe('Groq');
    expect((await routed({ ignore: ['deepinfra'] })).json.provider).toBe('Together');
    expect((await routed({ order: ['groq', 'together'] })).json.provider).toBe('Groq');
    expect((await routed({ quantizations: ['fp8'] })).json.provider).toBe('Together');
    // An order naming nobody falls back to the usual choice unless fallbacks are off.
    expect((await routed({ order: ['nobody'] })).json.provider).toBe('DeepInfra');
  });

  it('a pinned provider holds when the router would move the load elsewhere tonight', async () => {
    const pinned = await routed({ only: ['deepinfra'], allow_fallbacks: false }, 'Groq');
    expect(pinned.json.provider).toBe('DeepInfra');
    expect((await routed({ order: ['together'] }, 'Groq')).json.provider).toBe('Together');
    // Unpinned, tonight's move shows.
    expect((await routed(undefined, 'Groq')).json.provider).toBe('Groq');
  });

  it('answers the documented 503 when the preferences leave no provider, without Retry-After', async () => {
    for (const prefs of [{ only: ['nobody'] }, { order: ['nobody'], allow_fallbacks: false }]) {
      const r = await routed(prefs);
      expect(r.status, JSON.stringify(prefs)).toBe(503);
      expect(r.json.error.code).toBe(503);
      expect(r.json.error.message).toMatch(/no available model provider meets your routing requirements/i);
      expect(r.headers['retry-after']).toBeUndefined();
    }
  });

  it('refuses a malformed provider object with a 400 naming the field', async () => {
    const r = await routed({ only: 'together' });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toContain('provider: `only` must be a list of strings');
    const flag = await routed({ allow_fallbacks: 'no' });
    expect(flag.status).toBe(400);
    expect(flag.json.error.message).toContain('`allow_fallbacks` must be a boolean');
  });

  it('the direct service ignores a provider field it does not document', async () => {
    const r = await complete(sim, 'direct', KEYS.direct, { body: { provider: { only: 'x' } } });
    expect(r.status).toBe(200);
  });
});
