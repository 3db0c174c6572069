import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { type LoopbackService, sendJson, startLoopbackService } from '../hostile/loopback.js';

// `verify` sends the seed's first request as each kind's adapter gives it (src/adapters/:
// `verify`), whatever the config says of max_tokens and retries.

let service: LoopbackService;
beforeAll(async () => {
  // A 503 every time: a client that retried would be seen asking again.
  service = await startLoopbackService((_req, res) =>
    sendJson(res, 503, JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } })),
  );
});
afterAll(() => service.close());

describe('verify', () => {
  it("sends each kind's first request: max_tokens 512 router / 1024 direct, no retry, not the configured values", async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': [
        'services:',
        `  a: { kind: router, base_url: ${service.url}/api/v1, api_key_env: A_KEY, max_tokens: 77, retries: 3 }`,
        `  b: { kind: direct, base_url: ${service.url}/v1, api_key_env: B_KEY, max_tokens: 88, retries: 3 }`,
        '',
      ].join('\n'),
    });
    try {
      const run = await runMain(['verify', '--model', 'm/x'], {
        cwd: project.dir,
        env: { A_KEY: 'sk-or-v1-0123456789abcdef0123', B_KEY: 'sk-0123456789abcdef0123456789' },
      });
      expect(run.stdout).toMatch(/a \(router\)[\s\S]*verdict: server_error \(HTTP 503\)/);
      expect(run.stdout).toMatch(/b \(direct\)[\s\S]*verdict: server_error \(HTTP 503\)/);
      expect(run.code).toBe(1);
      expect(service.seen.map((s) => [s.path, s.body?.max_tokens])).toEqual([
        ['/api/v1/chat/completions', 512],
        ['/v1/chat/completions', 1024],
      ]);
    } finally {
      await project.cleanup();
    }
  });
});
