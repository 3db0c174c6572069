import { describe, expect, it } from 'vitest';
import { candidateSkips, modelFit } from '../../src/run/candidate-fit.js';
import { planCases } from '../../src/run/plan.js';
import type { ServiceConfig } from '../../src/config/types.js';
import type { Suite } from '../../src/suite/types.js';

const service = (name: string, kind: ServiceConfig['kind']): ServiceConfig => ({
  name,
  kind,
  base_url: `http://127.0.0.1:1/${kind}/v1`,
  api_key_env: 'KEY',
  headers: {},
  max_tokens: 512,
  timeout_s: 60,
  retries: 0,
  concurrency: 8,
});
const router = service('router', 'router');
const direct = service('direct', 'direct');
const services = { router, direct };
const suite = (name: string, on: string, model: string): Suite => ({
  suite: name,
  file: `${name}.yaml`,
  service: on,
  model,
  params: { max_tokens: 64, provider: { order: ['azure'] } },
  cases: [
    {
      id: 'a',
      messages: [{ role: 'user', content: 'a' }],
      expect: [],
      location: { file: `${name}.yaml`, line: 2, column: 1 },
    },
    {
      id: 'b',
      messages: [{ role: 'user', content: 'b' }],
      expect: [],
      location: { file: `${name}.yaml`, line: 3, column: 1 },
    },
  ],
  location: { file: `${name}.yaml`, line: 1, column: 1 },
});
const routerSuite = suite('support', 'router', 'openai/gpt-4o-mini');
const directSuite = suite('notes', 'direct', 'kimi-k2-0905-preview');
const catalog = (...ids: string[]) => ids.map((id) => ({ id, alias_target: null }));

describe('modelFit', () => {
  it('takes the catalog as evidence when it was read: listed fits, unlisted does not, with the closest id', () => {
    const listed = catalog('openai/gpt-4o-mini', 'meta-llama/llama-3.3-70b-instruct');
    expect(modelFit('openai/gpt-4o-mini', router, listed)).toEqual({ fits: true });
    expect(modelFit('openai/gpt-4o-mimi', router, listed)).toEqual({
      fits: false,
      reason: 'the router service router does not list the model in its GET /models',
      hint: 'did you mean openai/gpt-4o-mini?',
    });
    // A direct service whose list holds an author/model id (some do): the list wins over the shape.
    expect(modelFit('meta-llama/llama-3.3-70b-instruct', direct, listed)).toEqual({ fits: true });
  });

  it.each([
    ['openai/gpt-4o', router, true],
    ['openai/gpt-4o', direct, false],
    ['kimi-k2-turbo-preview', direct, true],
    ['kimi-k2-turbo-preview', router, false],
    ['~openai/gpt-mini-latest', router, true],
    ['~openai/gpt-mini-latest', direct, false],
  ] as const)('without a readable list, decides %s on %s by the id shape', (model, on, fits) => {
    const fit = modelFit(model, on, null);
    expect(fit.fits).toBe(fits);
    if (!fit.fits) expect(fit.reason).toMatch(/could not be read, so the id's shape decided|aliases/);
  });
});

describe('candidateSkips', () => {
  const catalogs = new Map([
    ['router', catalog('openai/gpt-4o-mini', 'anthropic/claude-sonnet-4.5')],
    ['direct', catalog('kimi-k2-0905-preview', 'kimi-k2-turbo-preview')],
  ]);

  it('skips the suites of the other service, each with why', () => {
    expect(
      candidateSkips(
        [routerSuite, directSuite],
        { model: 'anthropic/claude-sonnet-4.5' },
        services,
        catalogs,
      ),
    ).toEqual({
      skip: [
        { suite: 'notes', reason: 'the direct service direct does not list the model in its GET /models' },
      ],
    });
    expect(
      candidateSkips([routerSuite, directSuite], { model: 'kimi-k2-turbo-preview' }, services, catalogs),
    ).toEqual({
      skip: [
        { suite: 'support', reason: 'the router service router does not list the model in its GET /models' },
      ],
    });
  });

  it('runs a provider on router suites only', () => {
    expect(candidateSkips([routerSuite, directSuite], { provider: 'groq' }, services, catalogs)).toEqual({
      skip: [
        {
          suite: 'notes',
          reason: "providers are a routing service's, and notes runs on direct, a direct service",
        },
      ],
    });
    expect(candidateSkips([directSuite], { provider: 'groq' }, services, catalogs)).toEqual({
      none: ["providers are a routing service's, and notes runs on direct, a direct service"],
    });
  });

  it('says why a candidate fits no suite, with the hint for a typo', () => {
    expect(
      candidateSkips([routerSuite, directSuite], { model: 'kimi-k2-turbo-previw' }, services, catalogs),
    ).toEqual({
      none: [
        'the router service router does not list the model in its GET /models',
        'the direct service direct does not list the model in its GET /models\n  → did you mean kimi-k2-turbo-preview?',
      ],
    });
  });

  it('with --service, sends every suite there, and checks the candidate against that service alone', () => {
    expect(
      candidateSkips(
        [routerSuite, directSuite],
        { model: 'kimi-k2-turbo-preview' },
        services,
        catalogs,
        'direct',
      ),
    ).toEqual({ skip: [] });
    expect(
      'none' in candidateSkips([routerSuite], { model: 'openai/gpt-4o-mini' }, services, catalogs, 'direct'),
    ).toBe(true);
  });
});

describe('the plan of a candidate', () => {
  it('leaves the skipped suites out, and pins a --providers candidate in place of the suite’s own preferences', () => {
    const cases = planCases([routerSuite, directSuite], {
      provider: 'groq',
      skip: [{ suite: 'notes', reason: 'a direct service' }],
    });
    expect(cases.map((c) => `${c.suite.suite}/${c.case.id}#${c.ordinal}`)).toEqual([
      'support/a#0',
      'support/b#1',
    ]);
    expect(cases[0]!.params).toEqual({
      max_tokens: 64,
      provider: { only: ['groq'], allow_fallbacks: false },
    });
    // The suite itself is not changed: a nightly run of it still sends its own preferences.
    expect(routerSuite.params.provider).toEqual({ order: ['azure'] });
    expect(planCases([routerSuite])[0]!.params).toBe(routerSuite.params);
  });
});
