import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ADAPTERS, type ServiceAdapter } from '../../src/adapters/index.js';
import { configSchema } from '../../src/config/schema.js';

const shipped = JSON.parse(
  readFileSync(new URL('../../schemas/config.schema.json', import.meta.url), 'utf8'),
);

/** The shipped schema with what the registry writes replaced by junk. */
function stale(): unknown {
  const template = structuredClone(shipped);
  const service = template.definitions.service;
  service.description = 'old';
  service.properties.kind.enum = ['gone'];
  service.properties.kind.description = 'old';
  service.properties.max_tokens.description = 'old';
  return template;
}

describe('the config schema', () => {
  it('takes its service kinds, their words and default max_tokens from the adapters: the shipped file is what they write', () => {
    expect(configSchema(stale())).toEqual(shipped);
    const service = shipped.definitions.service;
    expect(service.properties.kind.enum).toEqual(Object.keys(ADAPTERS));
    expect(service.properties.max_tokens.description).toMatch(
      /^Sent \(named as max_tokens_param says\) when a suite's params set neither max_tokens nor max_completion_tokens \(default 512 for router, 1024 for direct[,)]/,
    );
  });

  it('names a kind the registry gains, in the enum and in each text', () => {
    const registry = ADAPTERS as unknown as Record<string, ServiceAdapter>;
    registry.probe = {
      ...ADAPTERS.direct,
      schema: { is: 'a server of this test', semantics: 'bare ids, no key shape' },
      defaults: { ...ADAPTERS.direct.defaults, max_tokens: 256 },
    };
    try {
      const service = (configSchema(stale()) as typeof shipped).definitions.service;
      expect(service.properties.kind.enum).toEqual(Object.keys(ADAPTERS));
      expect(service.properties.kind.enum.at(-1)).toBe('probe');
      expect(service.description).toMatch(
        /^One chat-completion service\. kind picks its semantics: router \(Service A, a routing service such as OpenRouter\), direct \(Service B, a model vendor's own API\)(, .*)? or probe \(a server of this test\)\.$/,
      );
      expect(service.properties.kind.description).toMatch(/; probe: bare ids, no key shape\.$/);
      expect(service.properties.max_tokens.description).toMatch(/, 256 for probe\)\.$/);
    } finally {
      delete registry.probe;
    }
  });
});
