import { describe, expect, it } from 'vitest';
import { findSuiteAlias, pinSuiteText } from '../../src/suite/pin.js';

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
