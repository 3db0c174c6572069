import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ADAPTERS, type ServiceAdapter, serviceKinds } from '../../src/adapters/index.js';
import { defaultConfig } from '../../src/config/defaults.js';

const schema = JSON.parse(readFileSync(new URL('../../schemas/config.schema.json', import.meta.url), 'utf8'));

describe('service adapters', () => {
  it('one per kind the config schema allows, and the default config has one service of each kind with a default address', () => {
    expect(schema.definitions.service.properties.kind.enum).toEqual(Object.keys(ADAPTERS));
    const config = defaultConfig({});
    expect(Object.values(config.services).map((s) => [s.name, s.kind, s.max_tokens])).toEqual(
      serviceKinds()
        .filter((kind) => ADAPTERS[kind].defaults.base_url !== null)
        .map((kind) => [kind, kind, ADAPTERS[kind].defaults.max_tokens]),
    );
    expect(config.services.router?.max_tokens).toBe(512);
    expect(config.services.direct?.max_tokens).toBe(1024);
  });

  it('a kind without a default address (base_url null) is in the config used without a file only when a config names it', () => {
    const registry = ADAPTERS as unknown as Record<string, ServiceAdapter>;
    const at = (base_url: string | null): ServiceAdapter => ({
      ...ADAPTERS.direct,
      defaults: { ...ADAPTERS.direct.defaults, base_url },
    });
    registry.nowhere = at(null);
    registry.somewhere = at('http://127.0.0.1:9/v1');
    try {
      const config = defaultConfig({});
      expect(Object.keys(config.services)).toEqual(['router', 'direct', 'somewhere']);
      expect(config.services.somewhere?.base_url).toBe('http://127.0.0.1:9/v1');
    } finally {
      delete registry.nowhere;
      delete registry.somewhere;
    }
  });

  it.each([
    ['router', 'sk-or-v1-abc', null],
    ['router', 'sk-proj-abc', 'a direct-service key (sk-… without sk-or-)'],
    ['direct', 'sk-proj-abc', null],
    ['direct', 'sk-or-v1-abc', 'a routing-service key (sk-or-…)'],
  ] as const)('%s: a key %s is foreign: %s', (kind, key, foreign) => {
    expect(ADAPTERS[kind].keys.foreign(key)).toBe(foreign);
    expect(ADAPTERS[kind].keys.owns(key)).toBe(foreign === null);
  });

  it('each owns only the parameters its service documents, and no two kinds own one', () => {
    expect(ADAPTERS.router.params).toEqual([
      'provider',
      'reasoning',
      'top_k',
      'min_p',
      'repetition_penalty',
      'plugins',
      'transforms',
      'models',
    ]);
    expect(ADAPTERS.direct.params).toEqual(['reasoning_effort']);
  });

  it('declares each parameter a kind owns with its type in the suite schema, so validate knows it (and refuses any other)', () => {
    const params = (
      JSON.parse(readFileSync(new URL('../../schemas/suite.schema.json', import.meta.url), 'utf8')) as {
        definitions: {
          params: {
            additionalProperties: boolean;
            properties: Record<string, { type?: unknown; enum?: unknown; anyOf?: unknown }>;
          };
        };
      }
    ).definitions.params;
    expect(params.additionalProperties).toBe(false);
    for (const adapter of Object.values(ADAPTERS))
      for (const name of adapter.params) {
        const declared = params.properties[name];
        expect(declared, name).toBeDefined();
        expect(declared!.type ?? declared!.enum ?? declared!.anyOf, name).toBeDefined();
      }
  });
});
