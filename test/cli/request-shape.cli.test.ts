import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completion } from '../hostile/loopback.js';
import { makeProject } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

const ENV = {
  OPENROUTER_API_KEY: `sk-or-v1-${'ab12'.repeat(12)}`,
  DIRECT_API_KEY: `sk-${'cd34'.repeat(12)}`,
};

/** Every request body a loopback service received, by path. */
const bodies: { path: string; body: Record<string, unknown> }[] = [];
const server = createServer((req, res) => {
  let text = '';
  req.on('data', (d: Buffer) => (text += d));
  req.on('end', () => {
    bodies.push({ path: req.url ?? '', body: JSON.parse(text) as Record<string, unknown> });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(completion('ok'));
  });
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const suite = (service: string) =>
  [
    `suite: ${service}-shape`,
    `service: ${service}`,
    'model: openai/gpt-4o-mini',
    'params: { temperature: 0, seed: 7, reasoning_effort: low, provider: { only: [openai], allow_fallbacks: false } }',
    'system: Be brief.',
    'cases:',
    '  - id: turns',
    '    messages:',
    '      - { role: user, content: "Say ok" }',
    '      - { role: assistant, content: ok }',
    '      - { role: user, content: "Again" }',
    '    expect: [{ contains: ok }]',
    '',
  ].join('\n');

describe("the request in the services' own shape", () => {
  it('sends each kind every parameter but the other kind’s own, and the messages as written', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': `services:\n  router: { kind: router, base_url: ${url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0 }\n  direct: { kind: direct, base_url: ${url}/v1, api_key_env: DIRECT_API_KEY, retries: 0 }\n`,
      'suites/router.yaml': suite('router'),
      'suites/direct.yaml': suite('direct'),
    });
    try {
      const run = await runMain(['run'], { cwd: project.dir, env: ENV });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const sent = (prefix: string) => bodies.find((b) => b.path.startsWith(prefix))!.body;
      const messages = [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say ok' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'Again' },
      ];
      const common = { model: 'openai/gpt-4o-mini', messages, temperature: 0, seed: 7, max_tokens: 512 };
      expect(sent('/api/v1/')).toEqual({ ...common, provider: { only: ['openai'], allow_fallbacks: false } });
      expect(sent('/v1/')).toEqual({ ...common, max_tokens: 1024, reasoning_effort: 'low' });
    } finally {
      await project.cleanup();
    }
  });

  it('still refuses parameters and message fields a suite may not declare, naming them', async () => {
    const project = await makeProject({
      'suites/tools.yaml': [
        'suite: tools',
        'service: router',
        'model: openai/gpt-4o-mini',
        'params: { logprob: true }',
        'cases:',
        '  - id: a',
        '    messages:',
        '      - { role: user, content: hi, audio: call_1 }',
        '',
      ].join('\n'),
    });
    try {
      const validate = await runMain(['validate'], { cwd: project.dir, env: ENV });
      expect(validate.code).toBe(2);
      expect(validate.stderr).toMatch(
        /suites\/tools\.yaml:4:\d+: unknown key 'logprob' in params\n {2}→ did you mean 'logprobs'\?/,
      );
      expect(validate.stderr).toMatch(/unknown key 'audio' in cases\[0\]\.messages\[0\]/);
    } finally {
      await project.cleanup();
    }
  });
});
