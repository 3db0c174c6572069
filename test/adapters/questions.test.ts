import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ADAPTERS,
  adapterOf,
  type ServiceAdapter,
  serviceKinds,
  type SimFlavour,
} from '../../src/adapters/index.js';
import type { FirstRequest } from '../../src/adapters/types.js';
import { simulateServices } from '../../src/cli/sim-setup.js';
import type { Config, ServiceConfig, ServiceKind } from '../../src/config/types.js';
import { candidateSkips, modelFit } from '../../src/run/candidate-fit.js';
import { fetchModelEndpoints, fetchProviders } from '../../src/service/models.js';
import type { Suite } from '../../src/suite/types.js';
import { type LoopbackService, sendJson, startLoopbackService } from '../hostile/loopback.js';

// Each question a service kind answers, asked of each kind; then the places that used to
// compare kind names, driven with a kind the registry gains here: they must ask the adapter.

const service = (name: string, kind: string, base_url = 'http://127.0.0.1:1/v1'): ServiceConfig => ({
  name,
  kind: kind as ServiceKind,
  base_url,
  api_key_env: `${name.toUpperCase()}_KEY`,
  headers: {},
  max_tokens: 512,
  timeout_s: 5,
  retries: 0,
  concurrency: 1,
});

/**
 * What each kind answers. A kind added to ADAPTERS is a type error here until it has its row:
 * its answers are tested as it is written.
 */
const ANSWERS: Record<
  ServiceKind,
  {
    aliases: boolean;
    routing: boolean;
    prices: boolean;
    ids: { fit: string[]; misfit: string[] };
    verify: FirstRequest;
    simulator: SimFlavour;
  }
> = {
  router: {
    aliases: true,
    routing: true,
    prices: true,
    ids: { fit: ['openai/gpt-4o-mini', 'meta-llama/llama-3.3-70b-instruct:free'], misfit: ['gpt-4o'] },
    verify: { max_tokens: 512, timeout_s: 60, retries: 0 },
    simulator: 'router',
  },
  direct: {
    aliases: false,
    routing: false,
    prices: false,
    ids: { fit: ['kimi-k2-0905-preview', 'gpt-4o'], misfit: ['openai/gpt-4o-mini'] },
    verify: { max_tokens: 1024, timeout_s: 60, retries: 0 },
    simulator: 'direct',
  },
};

describe.each(Object.entries(ANSWERS))('what the %s kind answers', (kind, answers) => {
  const adapter = ADAPTERS[kind as ServiceKind];

  it('aliases: whether it resolves ~author/family-latest aliases', () => {
    expect(adapter.aliases).toBe(answers.aliases);
  });

  it('routing: whether it lists providers and a model’s endpoints', () => {
    expect(adapter.routing !== null).toBe(answers.routing);
  });

  it('catalog: whether its model list carries prices', () => {
    expect(adapter.catalog.prices).toBe(answers.prices);
  });

  it('modelIds: which ids are shaped like its own', () => {
    for (const id of answers.ids.fit) expect(adapter.modelIds.fits(id), id).toBe(true);
    for (const id of answers.ids.misfit) expect(adapter.modelIds.fits(id), id).toBe(false);
  });

  it('verify: the first request, and the config’s default max_tokens the same', () => {
    expect(adapter.verify).toEqual(answers.verify);
    expect(adapter.defaults.max_tokens).toBe(answers.verify.max_tokens);
  });

  it('simulator: which of the simulator’s services plays it', () => {
    expect(adapter.simulator).toBe(answers.simulator);
  });

  it('adapterOf gives it for a service of the kind', () => {
    expect(adapterOf(service('x', kind))).toBe(adapter);
  });
});

describe('the registry', () => {
  it('lists router first, then direct', () => {
    expect(serviceKinds().slice(0, 2)).toEqual(['router', 'direct']);
  });

  it("the router's routing paths: GET /providers and GET /models/{author}/{slug}/endpoints, escaped", () => {
    const routing = ADAPTERS.router.routing!;
    expect(routing.providers).toBe('/providers');
    expect(routing.endpoints('meta-llama/llama-3.3-70b-instruct:free')).toBe(
      '/models/meta-llama/llama-3.3-70b-instruct%3Afree/endpoints',
    );
    expect(routing.endpoints('a b/c/d')).toBe('/models/a%20b/c/d/endpoints');
    for (const id of ['gpt-4o', '/gpt-4o', 'openai/']) expect(routing.endpoints(id)).toBeNull();
  });
});

/**
 * A kind the registry gains for this file only, answering as the router does under another
 * name: every place below must treat it as a router, which comparing `kind === 'router'` would not.
 */
const relay: ServiceAdapter = { ...ADAPTERS.router, title: 'the relay', noun: 'a relay service' };
/** And one answering as a direct service does, but resolving nothing, routing nowhere. */
const plain: ServiceAdapter = { ...ADAPTERS.direct, title: 'the plain service', noun: 'a plain service' };

describe('a kind added to the registry is asked, never taken for another', () => {
  const registry = ADAPTERS as unknown as Record<string, ServiceAdapter>;
  beforeAll(() => {
    registry.relay = relay;
    registry.plain = plain;
  });
  afterAll(() => {
    delete registry.relay;
    delete registry.plain;
  });

  it('candidate fit: aliases, id shapes and providers follow the adapter', () => {
    const r = service('r', 'relay');
    const p = service('p', 'plain');
    expect(modelFit('~openai/gpt-mini-latest', r, null)).toEqual({ fits: true });
    expect(modelFit('~openai/gpt-mini-latest', p, null)).toEqual({
      fits: false,
      reason: "p is a plain service: ~aliases are a routing service's",
    });
    expect(modelFit('openai/gpt-4o', r, null)).toEqual({ fits: true });
    expect(modelFit('gpt-4o', p, null)).toEqual({ fits: true });
    expect(modelFit('gpt-4o', r, null)).toEqual({
      fits: false,
      reason:
        "the model is a bare id, a direct service's, and r is a relay service (its GET /models could not be read, so the id's shape decided)",
    });
    const suite = (on: string): Suite => ({
      suite: `on-${on}`,
      file: `${on}.yaml`,
      service: on,
      model: 'openai/gpt-4o-mini',
      params: {},
      cases: [],
      location: { file: `${on}.yaml`, line: 1, column: 1 },
    });
    expect(candidateSkips([suite('r'), suite('p')], { provider: 'deepinfra' }, { r, p }, new Map())).toEqual({
      skip: [
        {
          suite: 'on-p',
          reason: "providers are a routing service's, and on-p runs on p, a plain service",
        },
      ],
    });
  });

  describe('provider lists are read only where the adapter names them', () => {
    let loopback: LoopbackService;
    beforeAll(async () => {
      loopback = await startLoopbackService((req, res) =>
        sendJson(
          res,
          200,
          JSON.stringify(
            req.path.endsWith('/endpoints')
              ? { data: { endpoints: [{ tag: 'deepinfra/fp8' }] } }
              : { data: [{ slug: 'deepinfra' }] },
          ),
        ),
      );
    });
    afterAll(() => loopback.close());
    afterEach(() => void (loopback.seen.length = 0));

    it('a routing kind: GET /providers and GET /models/{author}/{slug}/endpoints', async () => {
      const r = service('r', 'relay', `${loopback.url}/api/v1`);
      expect(await fetchProviders(r, null)).toEqual(['deepinfra']);
      expect(await fetchModelEndpoints(r, null, 'openai/gpt-4o')).toEqual(['deepinfra/fp8']);
      expect(loopback.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
        'GET /api/v1/providers',
        'GET /api/v1/models/openai/gpt-4o/endpoints',
      ]);
    });

    it('a kind without routing: nothing is asked', async () => {
      const p = service('p', 'plain', `${loopback.url}/v1`);
      expect(await fetchProviders(p, null)).toBeNull();
      expect(await fetchModelEndpoints(p, null, 'openai/gpt-4o')).toBeNull();
      expect(loopback.seen).toEqual([]);
    });
  });

  it('--sim points each service at the simulator’s service its adapter names, with a key it accepts', async () => {
    const config: Config = {
      file: null,
      services: { r: service('r', 'relay'), p: service('p', 'plain'), d: service('d', 'direct') },
    };
    const sim = await simulateServices(config, {});
    try {
      const at = (name: string) => sim.config.services[name]!;
      expect(at('r').base_url).toBe(sim.simulator.routerBaseUrl);
      expect(at('p').base_url).toBe(sim.simulator.directBaseUrl);
      expect(at('d').base_url).toBe(sim.simulator.directBaseUrl);
      expect(at('r').api_key_env).not.toBe(at('p').api_key_env);
      expect(at('p').api_key_env).toBe(at('d').api_key_env);
      for (const name of ['r', 'p']) {
        const key = sim.env[at(name).api_key_env]!;
        expect(adapterOf(at(name)).keys.foreign(key)).toBeNull();
      }
    } finally {
      await sim.simulator.close();
    }
  });
});

// A kind is an adapter with every answer: leaving one out does not compile (npm run typecheck).
// @ts-expect-error: no `routing`, `aliases`, `catalog`, `modelIds`, `verify` or `simulator`
export const incomplete: ServiceAdapter = {
  title: 'the incomplete service',
  noun: 'an incomplete service',
  schema: { is: 'x', semantics: 'y' },
  defaults: { max_tokens: 1, base_url: null, api_key_env: 'X' },
  keys: { owns: () => true, foreign: () => null },
  params: [],
  rules: [],
};
