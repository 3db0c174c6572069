import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readRawReport, readReport, readSamples, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';
import { reasoningConfig, startReasoningService } from '../helpers/reasoning-service.js';
import { TOOL_ENV } from '../helpers/tool-server.js';

// Every request field the services document, through `validate` and `run`: each kind is sent
// what it takes, validate says what is wrong where it is written, what would break a baseline
// is refused unless allowed, and what changes an answer behind the model's back (plugins, a
// response cache) is said in the report.

let service: Awaited<ReturnType<typeof startReasoningService>>;
beforeAll(async () => {
  service = await startReasoningService();
});
afterAll(() => service.close());

/** Every field a suite may send to both kinds, as written and as sent. */
const COMMON = {
  max_completion_tokens: 900,
  temperature: 1,
  top_p: 0.9,
  seed: 7,
  stop: ['\n\n'],
  presence_penalty: 0.5,
  frequency_penalty: -0.5,
  logit_bias: { '50256': -100 },
  logprobs: true,
  top_logprobs: 3,
  user: 'nightly',
  verbosity: 'low',
  prompt_cache_key: 'suite-a',
  service_tier: 'flex',
};
/** The router's own fields. */
const ROUTER_ONLY = {
  reasoning: { effort: 'low', exclude: true },
  top_k: 40,
  min_p: 0.05,
  repetition_penalty: 1.1,
  plugins: [{ id: 'response-healing' }],
  transforms: ['middle-out'],
};

const suiteOf = (service: string, model: string, params: unknown, extra = '') =>
  [
    `suite: ${service}-params`,
    `service: ${service}`,
    `model: ${model}`,
    `params: ${JSON.stringify(params)}`,
    extra,
    'cases:',
    `  - id: sum`,
    `    prompt: ${service} sums`,
    '    expect: [{ contains: "4" }]',
    '',
  ].join('\n');

describe('every documented parameter', () => {
  it('is sent to the kind that takes it: the common ones to both, the router’s own to the router alone', async () => {
    const all = { ...COMMON, ...ROUTER_ONLY, reasoning_effort: 'low' };
    const project = await makeProject({
      'driftcheck.config.yaml': reasoningConfig(service.url),
      'suites/router.yaml': suiteOf('router', 'moonshotai/kimi-k2-thinking', all),
      'suites/direct.yaml': suiteOf('direct', 'o4-mini', all),
    });
    try {
      expect((await runMain(['validate'], { cwd: project.dir, env: TOOL_ENV })).code).toBe(0);
      const from = service.seen.length;
      const run = await runMain(['run', 'suites'], { cwd: project.dir, env: TOOL_ENV });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const sent = new Map(service.seen.slice(from).map((s) => [s.prompt, s.body!]));
      const { reasoning_effort: _, ...routerSent } = all;
      expect(sent.get('router sums')).toEqual({
        model: 'moonshotai/kimi-k2-thinking',
        messages: [{ role: 'user', content: 'router sums' }],
        ...routerSent,
      });
      expect(sent.get('direct sums')).toEqual({
        model: 'o4-mini',
        messages: [{ role: 'user', content: 'direct sums' }],
        ...COMMON,
        reasoning_effort: 'low',
      });
    } finally {
      await project.cleanup();
    }
  });

  it('validate refuses a misspelt one with a did-you-mean, a wrong type, two caps, an effort with a budget, and a fallback list unless the suite allows it', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': reasoningConfig(service.url),
      'suites/bad.yaml': [
        'suite: bad',
        'service: router',
        'model: moonshotai/kimi-k2-thinking',
        'params:',
        '  max_complation_tokens: 100',
        '  top_k: many',
        '  models: [openai/gpt-4o]',
        'cases:',
        '  - id: a',
        '    prompt: Hi',
        '    params:',
        '      max_tokens: 10',
        '      max_completion_tokens: 20',
        '      reasoning: { effort: low, max_tokens: 100 }',
        '    expect:',
        '      - judge:',
        '          model: o4-mini',
        '          rubric: says hi',
        '          params: { max_tokens: 10, max_completion_tokens: 2000, models: [openai/gpt-4o] }',
        '',
      ].join('\n'),
    });
    try {
      const validate = await runMain(['validate'], { cwd: project.dir, env: TOOL_ENV });
      expect(validate.code).toBe(2);
      const said = validate.stderr;
      expect(said).toContain(
        "suites/bad.yaml:5:3: unknown key 'max_complation_tokens' in params\n  → did you mean 'max_completion_tokens'?",
      );
      expect(said).toMatch(/suites\/bad\.yaml:6:10: .*top_k.*integer/);
      expect(said).toContain(
        "suites/bad.yaml:7:11: 'params.models' is a fallback list: when the suite's model fails, another model may answer",
      );
      expect(said).toContain("to send it anyway, add 'allow: [models]' to the suite");
      expect(said).toContain(
        "suites/bad.yaml:13:30: 'cases[0].params' sets both max_tokens and max_completion_tokens",
      );
      expect(said).toContain(
        "suites/bad.yaml:14:45: 'cases[0].params.reasoning' sets both effort and max_tokens: the routing service refuses a request with both",
      );
      // A judge's own params are a request's, held to the same rules.
      expect(said).toContain(
        "suites/bad.yaml:19:60: 'cases[0].expect[0].judge.params' sets both max_tokens and max_completion_tokens",
      );
      expect(said).toContain("'cases[0].expect[0].judge.params.models' is a fallback list");
      // And run refuses it the same way, before sending anything.
      const from = service.seen.length;
      const run = await runMain(['run', 'suites'], { cwd: project.dir, env: TOOL_ENV });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("'params.models' is a fallback list");
      expect(service.seen.length).toBe(from);
    } finally {
      await project.cleanup();
    }
  });

  it('allow: [models] sends the fallback list to the router (and a direct service is never sent it)', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': reasoningConfig(service.url),
      'suites/router.yaml': suiteOf(
        'router',
        'moonshotai/kimi-k2-thinking',
        { models: ['openai/gpt-4o'] },
        'allow: [models]',
      ),
      'suites/direct.yaml': suiteOf(
        'direct',
        'o4-mini',
        { max_completion_tokens: 500, models: ['x'] },
        'allow: [models]',
      ),
    });
    try {
      const from = service.seen.length;
      const run = await runMain(['run', 'suites'], { cwd: project.dir, env: TOOL_ENV });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const sent = new Map(service.seen.slice(from).map((s) => [s.prompt, s.body!]));
      expect(sent.get('router sums')).toMatchObject({ models: ['openai/gpt-4o'] });
      expect(sent.get('direct sums')).not.toHaveProperty('models');
    } finally {
      await project.cleanup();
    }
  });

  it('a configured response-cache header is refused unless the service allows it, then sent', async () => {
    const header = '    headers: { X-OpenRouter-Cache: "true" }\n';
    const config = (allow: string) =>
      `services:\n  router:\n    kind: router\n    base_url: ${service.url}/api/v1\n    api_key_env: OPENROUTER_API_KEY\n    retries: 0\n${header}${allow}`;
    const project = await makeProject({
      'driftcheck.config.yaml': config(''),
      'suites/router.yaml': suiteOf('router', 'moonshotai/kimi-k2-thinking', {}),
    });
    try {
      const refused = await runMain(['validate'], { cwd: project.dir, env: TOOL_ENV });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(
        "driftcheck.config.yaml:7:16: header 'X-OpenRouter-Cache' asks the router for its response cache",
      );
      expect(refused.stderr).toContain("to send it anyway, add 'allow: [response_cache]' to services.router");
      await writeFile(join(project.dir, 'driftcheck.config.yaml'), config('    allow: [response_cache]\n'));
      const from = service.seen.length;
      const run = await runMain(['run', 'suites'], { cwd: project.dir, env: TOOL_ENV });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(service.seen.length).toBe(from + 1);
      expect(service.seen.at(-1)!.headers['x-openrouter-cache']).toBe('true');
    } finally {
      await project.cleanup();
    }
  });
});

describe('what changes an answer behind the model’s back is said in the report', () => {
  it('the plugins a request was sent with are recorded, and response healing is marked', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': reasoningConfig(service.url),
      'suites/router.yaml': suiteOf('router', 'moonshotai/kimi-k2-thinking', {
        plugins: [{ id: 'response-healing' }],
      }),
      'suites/direct.yaml': suiteOf('direct', 'o4-mini', {
        max_completion_tokens: 500,
        plugins: [{ id: 'response-healing' }],
      }),
    });
    try {
      const run = await runMain(['run', 'suites'], { cwd: project.dir, env: TOOL_ENV });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const dir = runDirFrom(run, project.dir);
      const report = await readReport(dir);
      expect(reportSchemaErrors(report)).toEqual([]);
      const cases = new Map(report.cases.map((c) => [c.id, c]));
      expect(cases.get('router-params/sum')!.plugins).toEqual(['response-healing']);
      // Not sent to the direct service, so not recorded there.
      expect(cases.get('direct-params/sum')!.plugins).toBeNull();
      const samples = await readSamples(dir);
      expect(samples.find((s) => s.suite === 'router-params')!.plugins).toEqual(['response-healing']);
      const html = await readFile(join(dir, 'report.html'), 'utf8');
      expect(html).toContain('response-healing (repairs malformed JSON before checks see it');
    } finally {
      await project.cleanup();
    }
  });

  it('a router answer with every billable usage counter 0 is flagged as possibly cached, a HIT as cached; neither passes for a fresh answer', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': reasoningConfig(service.url),
      'suites/cache.yaml': [
        'suite: cache',
        'service: router',
        'model: moonshotai/kimi-k2-thinking',
        'cases:',
        '  - id: fresh',
        '    prompt: fresh',
        '  - id: zero',
        '    prompt: cached',
        '  - id: hit',
        '    prompt: hit',
        '',
      ].join('\n'),
    });
    try {
      const run = await runMain(['run', 'suites'], { cwd: project.dir, env: TOOL_ENV });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stderr).toContain(
        "driftcheck: warning: 1 sample came from the router's response cache (X-OpenRouter-Cache-Status: HIT) and 1 sample reported every billable usage counter 0, as a cached answer does: not fresh answers of the model; their cases' details say which\n",
      );
      const dir = runDirFrom(run, project.dir);
      const report = await readReport(dir);
      expect(reportSchemaErrors(report)).toEqual([]);
      const cases = new Map(report.cases.map((c) => [c.case, c]));
      expect(cases.get('fresh')).toMatchObject({ cache_hits: 0, zero_usage: 0, detail: 'brief' });
      expect(cases.get('zero')).toMatchObject({ cache_hits: 0, zero_usage: 1, detail: 'full' });
      expect(cases.get('hit')).toMatchObject({
        cache_hits: 1,
        zero_usage: 0,
        cache_status: 'HIT',
        detail: 'full',
      });
      const samples = new Map((await readSamples(dir)).map((s) => [s.case, s]));
      expect(samples.get('zero')!.from_cache).toBe('zero_usage');
      expect(samples.get('hit')!.from_cache).toBe('hit');
      expect(samples.get('fresh')!).not.toHaveProperty('from_cache');
      const html = await readFile(join(dir, 'report.html'), 'utf8');
      expect(html).toContain(
        '1 of 1 sample reported every billable usage counter 0: possibly an earlier answer from the response cache',
      );
      expect(html).toContain('1 of 1 sample came from the response cache (X-OpenRouter-Cache-Status: HIT)');
      // A case line keeps the counts only where they are not 0.
      const raw = await readRawReport(dir);
      const line = (id: string) => raw.cases.find((c) => c.case === id)!;
      expect(line('fresh')).not.toHaveProperty('zero_usage');
      expect(line('zero')).toMatchObject({ zero_usage: 1 });
    } finally {
      await project.cleanup();
    }
  });
});
