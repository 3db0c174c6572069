import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { completion, type LoopbackService, sendJson, startLoopbackService } from '../hostile/loopback.js';

const KEY = `sk-or-v1-${'ab12'.repeat(16)}`;
const MODEL = 'meta-llama/llama-3.3-70b-instruct';
const CASES = 6;

const SUITE = `suite: llama
service: router
model: ${MODEL}
cases:
${Array.from({ length: CASES }, (_, i) => `  - id: c${i}\n    prompt: "Say exactly: ok ${i}"\n    expect: [{ contains: ok }]`).join('\n')}
`;

/** The 503 the router documents when no provider meets the routing requirements. */
const NO_PROVIDER = JSON.stringify({
  error: { code: 503, message: 'No available model provider meets your routing requirements.' },
});

/**
 * A router as documented: its providers (`GET /providers`) and the model's endpoints
 * (`GET /models/{author}/{slug}/endpoints`) when `lists` is on; a request pinned to
 * `deepinfra` answers, one pinned to `together` gets the 503 (its endpoint is listed but
 * cannot take the request tonight), one pinned to `groq` answers only case c0.
 */
function fakeRouter(lists: { on: boolean }) {
  return startLoopbackService((req, res) => {
    if (req.method === 'GET') {
      if (!lists.on)
        return sendJson(res, 404, JSON.stringify({ error: { code: 404, message: 'Not Found' } }));
      if (req.path === '/api/v1/models') return sendJson(res, 200, JSON.stringify({ data: [{ id: MODEL }] }));
      if (req.path === '/api/v1/providers')
        return sendJson(
          res,
          200,
          JSON.stringify({
            data: ['DeepInfra', 'Together', 'Groq', 'OpenAI'].map((name) => ({
              name,
              slug: name.toLowerCase(),
              privacy_policy_url: null,
            })),
          }),
        );
      if (req.path === '/api/v1/models/meta-llama/llama-3.3-70b-instruct/endpoints')
        return sendJson(
          res,
          200,
          JSON.stringify({
            data: {
              id: MODEL,
              name: 'Llama',
              endpoints: ['deepinfra', 'together', 'groq'].map((tag) => ({ tag })),
            },
          }),
        );
      return sendJson(res, 404, JSON.stringify({ error: { code: 404, message: 'Not Found' } }));
    }
    const only = ((req.body?.provider as { only?: string[] } | undefined)?.only ?? [])[0];
    if (only === 'together' || (only === 'groq' && !req.prompt.endsWith(' 0')))
      return sendJson(res, 503, NO_PROVIDER);
    sendJson(res, 200, completion(`ok ${req.prompt}`, MODEL));
  });
}

describe('--providers candidates that cannot serve', () => {
  const lists = { on: false };
  let router: LoopbackService;
  let project: Awaited<ReturnType<typeof makeProject>>;
  const run = (args: string[]) => runMain(args, { cwd: project.dir, env: { OPENROUTER_API_KEY: KEY } });
  const posts = () => router.seen.filter((r) => r.method === 'POST').length;

  beforeAll(async () => {
    router = await fakeRouter(lists);
    project = await makeProject({
      'driftcheck.config.yaml': `services:\n  router: { kind: router, base_url: ${router.url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0 }\n`,
      'suites/llama.yaml': SUITE,
    });
    // Last night's baseline: every case passed.
    const night = await run(['run', '--update-baselines', '--reporter', 'json']);
    expect(night.code, night.stderr).toBe(0);
  });
  afterAll(async () => {
    await project.cleanup();
    await router.close();
  });

  it('a provider that answered nothing, or too few cases to test, gets no comparative verdict: it could not serve', async () => {
    // The router's lists cannot be read here: the providers are sent, and the 503s come back.
    lists.on = false;
    const result = await run(['run', '--providers', 'deepinfra,together,groq', '--report-dir', 'reports/p']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^deepinfra: no significant regression: pass rate lower in 0 and higher in 0 of 6 cases/m,
    );
    expect(result.stdout).toMatch(/^together: could not serve: 0 of 6 answered$/m);
    expect(result.stdout).toMatch(/^groq: could not serve: 1 of 6 answered, too few to test$/m);
    expect(result.stdout).not.toMatch(/^(together|groq): no significant regression/m);
    const folder = /compare: (\S+)\/compare\.json/.exec(result.stderr)![1]!;
    const json = JSON.parse(await readFile(join(project.dir, folder, 'compare.json'), 'utf8')) as {
      candidates: {
        label: string;
        verdict: { could_not_serve: boolean; answered: number; worse: boolean; line: string };
      }[];
    };
    expect(json.candidates.map((c) => [c.label, c.verdict.could_not_serve, c.verdict.answered])).toEqual([
      ['deepinfra', false, 6],
      ['together', true, 0],
      ['groq', true, 1],
    ]);
    const md = await readFile(join(project.dir, folder, 'compare.md'), 'utf8');
    expect(md).toContain('**together**: could not serve: 0 of 6 answered');
    const html = await readFile(join(project.dir, folder, 'compare.html'), 'utf8');
    expect(html).toContain('data-verdict="unserved">could not serve: 0 of 6 answered</p>');
  });

  it('a mistyped provider is refused before anything is sent, with a did-you-mean', async () => {
    lists.on = true;
    const before = posts();
    const result = await run(['run', '--providers', 'deepinfra,togther']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--providers: nothing was sent\nprovider togther: the router service router does not list the provider in its GET /providers\n  → did you mean together?',
    );
    expect(posts()).toBe(before);
  });

  it("a provider that has no endpoint of the suite's model is refused before anything is sent, naming those that have", async () => {
    lists.on = true;
    const before = posts();
    const result = await run(['run', '--providers', 'openai']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `provider openai fits no suite of the selection:\n  router has no endpoint of ${MODEL} by that provider (its GET /models/${MODEL}/endpoints lists deepinfra, together, groq)`,
    );
    expect(posts()).toBe(before);
  });
});
