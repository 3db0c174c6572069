import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/parse.js';
import { formatDiagnostic } from '../../../src/util/errors.js';
import { parseSuite } from '../../../src/suite/parse.js';

const suiteText = (suiteDrift: string, caseDrift: string) => `suite: orders
service: router
model: openai/gpt-4o-mini
${suiteDrift}
cases:
  - id: order-json
    prompt: Return the order as JSON
${caseDrift}
`;

const suiteErrors = (text: string) =>
  (parseSuite(text, 'orders.yaml').errors ?? []).map(formatDiagnostic).join('\n');

describe('drift: in suites', () => {
  it('parses suite and case tolerances', () => {
    const parsed = parseSuite(
      suiteText(
        'drift: { content: { normalize: [whitespace, case], similarity: 0.8 }, usage: { completion_tokens: 0.3, total_tokens: 0.3, cost: 0.5 } }',
        '    drift:\n      content: { json: true }\n      usage: { cost: 1 }',
      ),
      'orders.yaml',
    );
    expect(parsed.errors).toBeUndefined();
    expect(parsed.value!.drift).toEqual({
      content: { normalize: ['whitespace', 'case'], similarity: 0.8 },
      usage: { completion_tokens: 0.3, total_tokens: 0.3, cost: 0.5 },
    });
    expect(parsed.value!.cases[0]!.drift).toEqual({ content: { json: true }, usage: { cost: 1 } });
  });

  it('leaves drift unset when absent', () => {
    const parsed = parseSuite(suiteText('', ''), 'orders.yaml');
    expect(parsed.value!.drift).toBeUndefined();
    expect(parsed.value!.cases[0]!.drift).toBeUndefined();
  });

  it.each([
    [
      'a typo in a usage key',
      'drift: { usage: { completion_token: 0.3 } }',
      '',
      /unknown key 'completion_token' in drift\.usage\n {2}→ did you mean 'completion_tokens'\?/,
    ],
    [
      'a typo under drift',
      'drift: { contnet: { json: true } }',
      '',
      /unknown key 'contnet' in drift\n {2}→ did you mean 'content'\?/,
    ],
    [
      'an unknown normalisation',
      'drift: { content: { normalize: [whitespaces] } }',
      '',
      /must be one of whitespace, case, punctuation; got 'whitespaces'\n {2}→ did you mean 'whitespace'\?/,
    ],
    [
      'a similarity above 1',
      '',
      '    drift: { content: { similarity: 1.5 } }',
      /'cases\[0\]\.drift\.content\.similarity' must be <= 1, got 1\.5/,
    ],
    ['a negative tolerance', 'drift: { usage: { cost: -0.1 } }', '', /'drift\.usage\.cost' must be >= 0/],
    [
      'json as text',
      'drift: { content: { json: "yes" } }',
      '',
      /'drift\.content\.json' must be true or false|must be a boolean/,
    ],
  ])('refuses %s', (_name, suiteDrift, caseDrift, pattern) => {
    expect(suiteErrors(suiteText(suiteDrift, caseDrift))).toMatch(pattern);
  });
});

const configText = (prices: string) => `services:
  router:
    kind: router
    base_url: https://openrouter.ai/api/v1
    api_key_env: OPENROUTER_API_KEY
${prices}
`;
const configErrors = (text: string) =>
  (parseConfig(text, 'driftcheck.config.yaml', {}).errors ?? []).map(formatDiagnostic).join('\n');

describe('prices: in the config', () => {
  it('parses USD per 1M tokens by model id', () => {
    const parsed = parseConfig(
      configText(
        'prices:\n  kimi-k2-0905-preview: { prompt: 0.6, completion: 2.5 }\n  openai/gpt-4o-mini: { prompt: 0.15, completion: 0.6 }',
      ),
      'driftcheck.config.yaml',
      {},
    );
    expect(parsed.errors).toBeUndefined();
    expect(parsed.value!.prices).toEqual({
      'kimi-k2-0905-preview': { prompt: 0.6, completion: 2.5 },
      'openai/gpt-4o-mini': { prompt: 0.15, completion: 0.6 },
    });
  });

  it('is absent when not configured', () => {
    expect(parseConfig(configText(''), 'c.yaml', {}).value!.prices).toBeUndefined();
  });

  it.each([
    [
      'a typo in a price field',
      'prices:\n  m1: { prompt: 1, completon: 2 }',
      /unknown key 'completon' in prices\.m1\n {2}→ did you mean 'completion'\?/,
    ],
    [
      'a missing completion price',
      'prices:\n  m1: { prompt: 1 }',
      /missing required key 'completion' in prices\.m1/,
    ],
    ['a negative price', 'prices:\n  m1: { prompt: -1, completion: 2 }', /'prices\.m1\.prompt' must be >= 0/],
    [
      'a typo at the top',
      'price:\n  m1: { prompt: 1, completion: 2 }',
      /unknown key 'price'\n {2}→ did you mean 'prices'\?/,
    ],
    [
      'an alias as price key',
      "prices:\n  '~openai/gpt-mini-latest': { prompt: 1, completion: 2 }",
      /an alias never answers a request/,
    ],
  ])('refuses %s', (_name, prices, pattern) => {
    expect(configErrors(configText(prices))).toMatch(pattern);
  });
});
