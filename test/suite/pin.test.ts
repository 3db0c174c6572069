import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { findSuiteAlias, pinProviderText, pinSuiteText, providerSlug } from '../../src/suite/pin.js';

const SUITE = `# nightly suite — keep this comment
suite: latest   # and this one
service: router
model: ~anthropic/claude-opus-latest   # moves between runs
cases:
  - id: a
    prompt: hi
    expect: [{ non_empty: true }]
`;

describe('pinSuiteText', () => {
  it('replaces the alias in place and keeps every other byte', () => {
    const result = pinSuiteText(SUITE, () => 'anthropic/claude-opus-4.5');
    expect(result.changes).toEqual([
      { line: 4, alias: '~anthropic/claude-opus-latest', concrete: 'anthropic/claude-opus-4.5' },
    ]);
    expect(result.text).toBe(SUITE.replace('~anthropic/claude-opus-latest', 'anthropic/claude-opus-4.5'));
  });

  it.each([
    ['double quotes', `model: "~openai/gpt-mini-latest"`, `model: "openai/gpt-4o-mini"`],
    ['single quotes', `model: '~openai/gpt-mini-latest'`, `model: 'openai/gpt-4o-mini'`],
  ])('keeps %s', (_name, line, expected) => {
    const text = `suite: s\nservice: router\n${line}\ncases: []\n`;
    expect(pinSuiteText(text, () => 'openai/gpt-4o-mini').text).toBe(
      `suite: s\nservice: router\n${expected}\ncases: []\n`,
    );
  });

  it('leaves concrete ids alone and reports aliases it could not resolve', () => {
    const concrete = SUITE.replace('~anthropic/claude-opus-latest', 'openai/gpt-4o');
    expect(findSuiteAlias(concrete)).toBeNull();
    expect(pinSuiteText(concrete, () => 'x').changes).toEqual([]);
    expect(pinSuiteText(SUITE, () => undefined)).toEqual({
      text: SUITE,
      changes: [],
      unresolved: ['~anthropic/claude-opus-latest'],
    });
  });
});

describe('pinProviderText', () => {
  const HEAD = `# keep\nsuite: s   # keep too\nservice: router\nmodel: meta-llama/llama-3.3-70b-instruct\n`;
  const CASES = `cases:\n  - id: a\n    prompt: hi\n    expect: [{ non_empty: true }]\n`;
  const PIN = `{ only: ["together"], allow_fallbacks: false }`;

  it('adds a params block before cases: when the suite has none, keeping every other byte', () => {
    const out = pinProviderText(HEAD + CASES, 'together');
    expect(out).toEqual({ text: `${HEAD}params:\n  provider: ${PIN}\n${CASES}`, line: 6 });
  });

  it('adds one line to a block params, at its indentation', () => {
    const text = `${HEAD}params:\n    temperature: 0   # deterministic\n${CASES}`;
    const out = pinProviderText(text, 'together');
    expect(out).toEqual({
      text: `${HEAD}params:\n    provider: ${PIN}\n    temperature: 0   # deterministic\n${CASES}`,
      line: 6,
    });
  });

  it('adds one entry to a flow params, and fills an empty one', () => {
    const flow = pinProviderText(`${HEAD}params: { temperature: 0 }\n${CASES}`, 'groq');
    expect(flow && 'text' in flow && flow.text).toBe(
      `${HEAD}params: { provider: { only: ["groq"], allow_fallbacks: false }, temperature: 0 }\n${CASES}`,
    );
    const empty = pinProviderText(`${HEAD}params: {}\n${CASES}`, 'groq');
    expect(empty && 'text' in empty && empty.text).toBe(
      `${HEAD}params: { provider: { only: ["groq"], allow_fallbacks: false } }\n${CASES}`,
    );
  });

  it('replaces an empty params: line, and what it writes parses back to the pin', () => {
    const out = pinProviderText(`${HEAD}params:\n${CASES}`, 'amazon-bedrock');
    expect(out && 'text' in out).toBe(true);
    const text = (out as { text: string }).text;
    expect(parse(text).params).toEqual({ provider: { only: ['amazon-bedrock'], allow_fallbacks: false } });
    expect(parse(text).cases).toHaveLength(1);
  });

  it('leaves a suite that already pins its provider alone, and refuses a params that is not a mapping', () => {
    expect(pinProviderText(`${HEAD}params:\n  provider: { order: [x] }\n${CASES}`, 'y')).toBeNull();
    expect(pinProviderText(`${HEAD}params: [1]\n${CASES}`, 'y')).toEqual({
      problem: expect.stringContaining('`params` is not a mapping'),
    });
  });

  it('derives the slug from the name a reply reports', () => {
    expect(providerSlug('Amazon Bedrock')).toBe('amazon-bedrock');
    expect(providerSlug('DeepInfra')).toBe('deepinfra');
  });
});
