import { describe, expect, it } from 'vitest';
import { PreflightError } from '../../src/util/errors.js';
import { resolveApiKey } from '../../src/service/preflight.js';
import { directKey, makeService, routerKey } from './helpers.js';

function preflightMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PreflightError);
    expect((error as PreflightError).exitCode).toBe(2);
    return (error as PreflightError).message;
  }
  throw new Error('expected a PreflightError');
}

describe('resolveApiKey', () => {
  it('returns the key from the named env variable, trimmed', () => {
    const service = makeService('router', 'https://openrouter.ai/api/v1');
    expect(resolveApiKey(service, { OPENROUTER_API_KEY: `${routerKey}\n` })).toBe(routerKey);
    expect(
      resolveApiKey(makeService('direct', 'https://api.moonshot.ai/v1'), { DIRECT_API_KEY: directKey }),
    ).toBe(directKey);
  });

  it.each([
    ['unset', {}, /OPENROUTER_API_KEY is not set/],
    ['empty', { OPENROUTER_API_KEY: '  ' }, /OPENROUTER_API_KEY is empty/],
  ])('refuses an %s env value and names the variable and service', (_name, env, pattern) => {
    const message = preflightMessage(() =>
      resolveApiKey(makeService('router', 'https://openrouter.ai/api/v1'), env),
    );
    expect(message).toMatch(pattern);
    expect(message).toContain('"router"');
  });

  it.each([
    ['', /no base_url/],
    [`\${DIRECT_BASE_URL}`, /environment variable is unset/],
    ['not a url', /not a valid URL/],
    ['ftp://example.com/v1', /https/],
    ['http://api.example.com/v1', /plain http/],
  ])('refuses base_url %j', (baseUrl, pattern) => {
    const message = preflightMessage(() =>
      resolveApiKey(makeService('direct', baseUrl), { DIRECT_API_KEY: directKey }),
    );
    expect(message).toMatch(pattern);
  });

  it.each(['http://127.0.0.1:8787/v1', 'http://localhost:8787/v1', 'http://[::1]:8787/v1'])(
    'allows plain http to loopback %s',
    (baseUrl) => {
      expect(resolveApiKey(makeService('direct', baseUrl), { DIRECT_API_KEY: directKey })).toBe(directKey);
    },
  );

  it.each([
    ['direct', 'DIRECT_API_KEY', routerKey, /routing-service key/],
    ['router', 'OPENROUTER_API_KEY', directKey, /direct-service key/],
  ] as const)(
    'refuses a %s service given the other platform key, without echoing it',
    (kind, env, key, pattern) => {
      const message = preflightMessage(() =>
        resolveApiKey(makeService(kind, 'https://example.com/v1'), { [env]: key }),
      );
      expect(message).toMatch(pattern);
      expect(message).toContain(env);
      expect(message).toContain('key and the base address together');
      expect(message).not.toContain(key);
      expect(message).not.toContain(key.slice(0, 12));
    },
  );

  it('accepts a router key without a recognisable prefix (only the known other shape is refused)', () => {
    expect(
      resolveApiKey(makeService('router', 'https://openrouter.ai/api/v1'), {
        OPENROUTER_API_KEY: 'custom-gateway-token',
      }),
    ).toBe('custom-gateway-token');
  });
});
