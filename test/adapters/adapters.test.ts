import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ADAPTERS, serviceKinds } from '../../src/adapters/index.js';
import { defaultConfig } from '../../src/config/defaults.js';

const schema = JSON.parse(readFileSync(new URL('../../schemas/config.schema.json', import.meta.url), 'utf8'));

describe('service adapters', () => {
  it('one per kind the config schema allows, and the default config has one service of each', () => {
    expect(schema.definitions.service.properties.kind.enum).toEqual(Object.keys(ADAPTERS));
    const config = defaultConfig({});
    expect(Object.values(config.services).map((s) => [s.name, s.kind, s.max_tokens])).toEqual(
      serviceKinds().map((kind) => [kind, kind, ADAPTERS[kind].defaults.max_tokens]),
    );
    expect(config.services.router?.max_tokens).toBe(512);
    expect(config.services.direct?.max_tokens).toBe(1024);
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
    expect(ADAPTERS.router.params).toEqual(['provider']);
    expect(ADAPTERS.direct.params).toEqual(['reasoning_effort']);
  });
});
