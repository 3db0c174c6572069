import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../src/adapters/index.js';
import { explainApiKeyEnv } from '../../src/config/api-key-env.js';
import { explainBaseUrl } from '../../src/config/base-url.js';
import { expandEnv, unsetEnv } from '../../src/config/env.js';
import { parseConfig } from '../../src/config/parse.js';
import { formatDiagnostic } from '../../src/util/errors.js';
import { isLoopbackHost } from '../../src/util/loopback.js';

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../fixtures/config/${name}`, import.meta.url)), 'utf8');

describe('parseConfig on broken fixtures', () => {
  const env = { DIRECT_HOST: 'api.example.com' };
  // [fixture, line, column, message substring, hint substring]
  it.each([
    [
      'unknown-kind.yaml',
      3,
      11,
      `'services.router.kind' must be one of ${Object.keys(ADAPTERS).join(', ')}; got 'routr'`,
      "did you mean 'router'?",
    ],
    [
      'base-url-not-url.yaml',
      4,
      15,
      "base_url 'api.moonshot.ai/v1' is not a URL",
      'absolute URL ending in /v1',
    ],
    [
      'base-url-env-not-url.yaml',
      4,
      15,
      "base_url 'api.example.com/v1' is not a URL (after expanding '${DIRECT_HOST}/v1')",
      'absolute URL',
    ],
    [
      'key-in-api-key-env.yaml',
      5,
      18,
      "'services.router.api_key_env' looks like a key value, not the name of an environment variable",
      'put the key in the environment, name the variable here',
    ],
    [
      'env-reference-as-name.yaml',
      5,
      18,
      "takes the variable's name, not a reference to it",
      'write api_key_env: OPENROUTER_API_KEY',
    ],
    ['plain-http.yaml', 4, 15, 'plain http:// is refused for openrouter.ai', 'use https://'],
    ['unknown-key.yaml', 6, 5, "unknown key 'timeout' in services.router", "did you mean 'timeout_s'?"],
    ['missing-services.yaml', 1, 1, "missing required key 'services'", "add 'services:'"],
    ['missing-services.yaml', 1, 1, "unknown key 'service'", "did you mean 'services'?"],
    ['authorization-header.yaml', 8, 7, "header 'Authorization' would carry a credential", 'api_key_env'],
    ['bad-service-name.yaml', 2, 3, "'my router' in services is not a valid name", 'A service name'],
    ['zero-concurrency.yaml', 6, 18, "'services.router.concurrency' must be >= 1, got 0", 'in flight'],
    ['missing-kind.yaml', 3, 5, "missing required key 'kind' in services.router", "add 'kind:'"],
  ])('%s → %i:%i %s', (name, line, column, message, hint) => {
    const file = `broken/${name}`;
    const result = parseConfig(fixture(file), file, env);
    const found = result.errors?.find((d) => d.message.includes(message));
    expect(found, JSON.stringify(result.errors, null, 2)).toMatchObject({ file, line, column });
    expect(found?.hint).toContain(hint);
  });

  it('never repeats a key pasted into api_key_env', () => {
    const text = fixture('broken/key-in-api-key-env.yaml');
    const errors = parseConfig(text, 'c.yaml', {}).errors ?? [];
    expect(errors).toHaveLength(1);
    const printed = errors.map(formatDiagnostic).join('\n');
    expect(printed).not.toContain('sk-or-v1');
    expect(printed).not.toContain('0123456789abcdef');
  });

  it('catches a pasted key that happens to look like a variable name, without echoing it', () => {
    const pasted = 'aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1g';
    const text = `services:\n  r:\n    kind: router\n    base_url: https://x.example/v1\n    api_key_env: ${pasted}\n`;
    const errors = parseConfig(text, 'c.yaml', {}).errors ?? [];
    expect(errors).toMatchObject([{ line: 5, column: 18 }]);
    expect(errors.map(formatDiagnostic).join('\n')).not.toContain(pasted);
  });

  it('does not treat an unset ${VAR} in base_url as an error', () => {
    expect(parseConfig(fixture('broken/base-url-env-not-url.yaml'), 'c.yaml', {}).errors).toBeUndefined();
  });
});

describe('parseConfig on valid fixtures', () => {
  it("fills DESIGN.md's example with defaults and expands ${DIRECT_BASE_URL}", () => {
    const result = parseConfig(fixture('valid/design-example.yaml'), 'driftcheck.config.yaml', {
      DIRECT_BASE_URL: 'https://api.moonshot.ai/v1/',
    });
    expect(result).toEqual({
      value: {
        file: 'driftcheck.config.yaml',
        services: {
          router: {
            name: 'router',
            kind: 'router',
            base_url: 'https://openrouter.ai/api/v1',
            api_key_env: 'OPENROUTER_API_KEY',
            headers: { 'HTTP-Referer': 'https://example.com', 'X-Title': 'my-app' },
            max_tokens: 512,
            timeout_s: 60,
            retries: 0,
            concurrency: 8,
          },
          direct: {
            name: 'direct',
            kind: 'direct',
            base_url: 'https://api.moonshot.ai/v1',
            api_key_env: 'DIRECT_API_KEY',
            headers: {},
            max_tokens: 1024,
            timeout_s: 60,
            retries: 2,
            concurrency: 8,
          },
        },
      },
    });
  });

  it('leaves base_url empty and names the variable when it is unset', () => {
    const direct = parseConfig(fixture('valid/design-example.yaml'), 'c.yaml', {}).value?.services.direct;
    expect(direct?.base_url).toBe('');
    expect(direct && unsetEnv(direct)).toEqual(['DIRECT_BASE_URL']);
    const router = parseConfig(fixture('valid/design-example.yaml'), 'c.yaml', {}).value?.services.router;
    expect(router && unsetEnv(router)).toEqual([]);
  });

  it('expands variables inside URLs and headers, dropping headers whose variable is unset', () => {
    const services = parseConfig(fixture('valid/full.yaml'), 'c.yaml', { SIM_PORT: '4010' }).value?.services;
    expect(services?.['local-sim']).toMatchObject({
      base_url: 'http://127.0.0.1:4010/api/v1',
      headers: { 'HTTP-Referer': 'https://example.com' },
      timeout_s: 2.5,
      retries: 3,
      concurrency: 2,
      verify_model: 'openai/gpt-4o-mini',
      max_tokens: 512,
      unset_env: ['APP_TITLE'],
    });
    expect(services?.kimi).toMatchObject({ kind: 'direct', max_tokens: 1024, concurrency: 8 });
    const titled = parseConfig(fixture('valid/full.yaml'), 'c.yaml', {
      SIM_PORT: '1',
      APP_TITLE: 'ci',
    }).value;
    expect(titled?.services['local-sim']?.headers).toEqual({
      'X-Title': 'ci',
      'HTTP-Referer': 'https://example.com',
    });
  });
});

describe('max_cost', () => {
  const SERVICES =
    'services:\n  router: { kind: router, base_url: https://openrouter.ai/api/v1, api_key_env: OPENROUTER_API_KEY }\n';
  it('takes a positive amount of USD at the top level', () => {
    expect(parseConfig(`${SERVICES}max_cost: 0.5\n`, 'c.yaml', {}).value?.max_cost).toBe(0.5);
    expect(parseConfig(SERVICES, 'c.yaml', {}).value).not.toHaveProperty('max_cost');
  });

  it.each(['0', '-1', '"ten"'])('refuses max_cost: %s at its line', (value) => {
    const errors = parseConfig(`${SERVICES}max_cost: ${value}\n`, 'c.yaml', {}).errors ?? [];
    expect(errors.map(formatDiagnostic).join('\n')).toMatch(/^c\.yaml:3:\d+: .*max_cost/m);
  });
});

describe('config helpers', () => {
  it.each([
    ['${A}/v1', { A: 'https://x' }, 'https://x/v1', []],
    ['${A}${B}', { A: 'a' }, 'a', ['B']],
    ['${A}-${A}', { A: '' }, '-', ['A']],
    ['no refs $A {A}', {}, 'no refs $A {A}', []],
  ])('expandEnv(%s)', (template, env, value, missing) => {
    expect(expandEnv(template, env)).toEqual({ value, missing });
  });

  it.each([
    ['OPENROUTER_API_KEY', null],
    ['_PRIVATE', null],
    ['sk-abc', 'looks like a key value'],
    ['sk_live_abc', 'looks like a key value'],
    ['aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1g', 'looks like a key value'],
    ['abc-123-def-456-ghi', 'looks like a key value'],
    ['$HOME', "takes the variable's name"],
    ['${HOME}', "takes the variable's name"],
    ['1PASSWORD', 'must be the name of an environment variable'],
    ['MY KEY', 'must be the name of an environment variable'],
  ])('explainApiKeyEnv(%s)', (value, problem) => {
    const found = explainApiKeyEnv(value);
    if (problem === null) expect(found).toBeNull();
    else {
      expect(found?.message).toContain(problem);
      expect(found?.message).not.toContain(value);
    }
  });

  it.each([
    ['https://openrouter.ai/api/v1', null],
    ['http://127.0.0.1:8080/v1', null],
    ['http://localhost/v1', null],
    ['http://[::1]:9/v1', null],
    ['http://10.0.0.5/v1', 'plain http:// is refused'],
    ['ftp://example.com/v1', 'must use https://'],
    ['https://user:pw@example.com/v1', 'must not carry credentials'],
    ['example.com/v1', 'is not a URL'],
  ])('explainBaseUrl(%s)', (url, problem) => {
    const found = explainBaseUrl(url);
    if (problem === null) expect(found).toBeNull();
    else expect(found?.message).toContain(problem);
  });

  it.each([
    ['localhost', true],
    ['127.0.0.1', true],
    ['127.10.0.3', true],
    ['[::1]', true],
    ['128.0.0.1', false],
    ['localhost.example.com', false],
  ])('isLoopbackHost(%s) = %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});
