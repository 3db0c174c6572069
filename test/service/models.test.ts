import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerListed } from '../../src/run/candidate-fit.js';
import { catalogReader, providerLists } from '../../src/service/check-models.js';
import { fetchModelCatalog, fetchModelEndpoints } from '../../src/service/models.js';
import type { ServiceConfig } from '../../src/config/types.js';

let reply: (req: IncomingMessage, res: ServerResponse) => void = () => {};
const seen: string[] = [];
const server = createServer((req, res) => {
  seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`);
  reply(req, res);
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const service = (): ServiceConfig =>
  ({ kind: 'router', base_url: `${base}/`, timeout_s: 2, headers: {} }) as unknown as ServiceConfig;

describe('fetchModelCatalog', () => {
  it('reads the catalog with the key, keeping each alias row’s concrete target', async () => {
    seen.length = 0;
    reply = (_req, res) =>
      res.end(
        JSON.stringify({
          data: [
            { id: 'anthropic/claude-opus-4.5' },
            { id: '~anthropic/claude-opus-latest', alias_target: { slug: 'anthropic/claude-opus-4.5' } },
            { name: 'a row without an id' },
          ],
        }),
      );
    expect(await fetchModelCatalog(service(), 'sk-or-v1-test-key-0000')).toEqual([
      { id: 'anthropic/claude-opus-4.5', alias_target: null },
      { id: '~anthropic/claude-opus-latest', alias_target: 'anthropic/claude-opus-4.5' },
    ]);
    expect(seen).toEqual(['GET /api/v1/models Bearer sk-or-v1-test-key-0000']);
  });

  it.each<[string, (req: IncomingMessage, res: ServerResponse) => void]>([
    [
      'a redirect (not followed: the key stays on its host)',
      (_q, r) => r.writeHead(307, { location: 'http://x.example/' }).end(),
    ],
    ['an error status', (_q, r) => r.writeHead(503).end('down')],
    ['a body that is not JSON', (_q, r) => r.end('<html>')],
    ['no data list', (_q, r) => r.end('{"models":[]}')],
    ['no answer within timeout_s', () => {}],
  ])('gives null on %s, so pin falls back to one minimal call', async (_what, answer) => {
    reply = answer;
    const slow = { ...service(), timeout_s: 0.2 } as ServiceConfig;
    expect(await fetchModelCatalog(slow, null)).toBeNull();
  });
});

describe("catalogReader: one run reads each service's model list once", () => {
  it('asks each service once however often the candidates and the cost cap ask, with the key trimmed', async () => {
    seen.length = 0;
    reply = (_req, res) => res.end(JSON.stringify({ data: [{ id: 'openai/gpt-4o-mini' }] }));
    const router = { ...service(), name: 'router', api_key_env: 'KEY_A' } as ServiceConfig;
    const other = { ...service(), name: 'other', api_key_env: 'KEY_B' } as ServiceConfig;
    const read = catalogReader({ KEY_A: 'sk-or-v1-test-key-aaaa\n', KEY_B: 'sk-or-v1-test-key-bbbb' });
    const [first, second] = await Promise.all([read([router]), read([router, other])]);
    const third = await read([other, router]);
    expect(seen).toEqual([
      'GET /api/v1/models Bearer sk-or-v1-test-key-aaaa',
      'GET /api/v1/models Bearer sk-or-v1-test-key-bbbb',
    ]);
    for (const map of [first, second, third])
      expect(map.get('router')).toEqual([{ id: 'openai/gpt-4o-mini', alias_target: null }]);
    expect(third.get('other')).toEqual(second.get('other'));
  });
});

describe('the router lists --providers reads: providers and a model’s endpoints', () => {
  it('reads the provider slugs and the endpoint tags with the key, each at most once per run', async () => {
    seen.length = 0;
    reply = (req, res) => {
      if (req.url === '/api/v1/providers')
        return res.end(
          JSON.stringify({ data: [{ name: 'DeepInfra', slug: 'deepinfra' }, { name: 'no slug' }] }),
        );
      if (req.url === '/api/v1/models/meta-llama/llama-3.3-70b-instruct%3Afree/endpoints')
        return res.end(
          JSON.stringify({ data: { endpoints: [{ tag: 'deepinfra/bf16' }, { tag: 'groq' }, {}] } }),
        );
      res.writeHead(404).end('{}');
    };
    const router = { ...service(), name: 'router', api_key_env: 'KEY' } as ServiceConfig;
    const lists = providerLists({ KEY: 'sk-or-v1-test-key-cccc\n' });
    expect(await lists.providers(router)).toEqual(['deepinfra']);
    expect(await lists.providers(router)).toEqual(['deepinfra']);
    expect(await lists.endpoints(router, 'meta-llama/llama-3.3-70b-instruct:free')).toEqual([
      'deepinfra/bf16',
      'groq',
    ]);
    // A model the router does not have (404), or an id that is not author/slug: nothing to check with.
    expect(await lists.endpoints(router, 'openai/gpt-9')).toBeNull();
    expect(await fetchModelEndpoints(router, null, 'gpt-4o')).toBeNull();
    expect(seen).toEqual([
      'GET /api/v1/providers Bearer sk-or-v1-test-key-cccc',
      'GET /api/v1/models/meta-llama/llama-3.3-70b-instruct%3Afree/endpoints Bearer sk-or-v1-test-key-cccc',
      'GET /api/v1/models/openai/gpt-9/endpoints Bearer sk-or-v1-test-key-cccc',
    ]);
    expect(providerListed('deepinfra', ['deepinfra/bf16'])).toBe(true);
    expect(providerListed('deepinfr', ['deepinfra', 'deepinfra/bf16'])).toBe(false);
  });
});
