import { describe, expect, it } from 'vitest';
import { aliasHint, familyMembers, isAlias } from '../../src/adapters/alias.js';
import { explainBadId, ID_PATTERN } from '../../src/suite/ids.js';

describe('isAlias', () => {
  it.each([
    ['~anthropic/claude-opus-latest', true],
    ['~openai/gpt-mini-latest', true],
    ['~author/anything', true],
    ['anthropic/claude-opus-4.5', false],
    ['openai/gpt-4o-mini', false],
    ['kimi-k2-0905-preview', false],
    ['~', false],
    ['~no-slash-latest', false],
    ['a/~b-latest', false],
  ])('%s → %s', (model, alias) => {
    expect(isAlias(model)).toBe(alias);
  });
});

describe('explainBadId', () => {
  it.each(['refunds', 'refund-window', 'a', 'A.b_c-9', '9lives', 'x'.repeat(128)])('accepts %s', (id) => {
    expect(ID_PATTERN.test(id)).toBe(true);
    expect(explainBadId(id)).toBeNull();
  });

  it.each([
    ['', 'is empty'],
    ['a\u0000b', 'NUL'],
    ['/etc/passwd', 'absolute path'],
    ['\\\\server\\share', 'absolute path'],
    ['C:\\suites\\x', 'absolute path'],
    ['..', "contains '..'"],
    ['../x', "contains '..'"],
    ['a/../../b', "contains '..'"],
    ['a\\..\\b', "contains '..'"],
    ['team/refunds', 'path separator'],
    ['x'.repeat(129), 'too long'],
    ['.hidden', 'start with a letter or digit'],
    ['-flag', 'start with a letter or digit'],
    ['with space', 'characters other than'],
    ['ünïcode', "contains 'ü', which is not an ASCII character"],
    ['café', "contains 'é', which is not an ASCII character"],
    ['ref😀', "contains '😀', which is not an ASCII character"],
  ])('rejects %j: %s', (id, reason) => {
    expect(ID_PATTERN.test(id)).toBe(false);
    const problem = explainBadId(id);
    expect(problem?.message).toContain(reason);
    expect(problem?.hint).toContain("ASCII letters (a-z, A-Z), digits, '.', '_' and '-'");
  });
});

describe('familyMembers and aliasHint', () => {
  const catalog = {
    source: 'the test catalog',
    models: [
      { id: 'openai/gpt-4o-mini', alias_target: null },
      { id: 'openai/gpt-4o', alias_target: null },
      { id: 'anthropic/claude-opus-4.1', alias_target: null },
      { id: 'anthropic/claude-opus-4.5', alias_target: null },
      { id: 'anthropic/claude-sonnet-4.5', alias_target: null },
      { id: '~anthropic/claude-opus-latest', alias_target: 'anthropic/claude-opus-4.5' },
    ],
  };

  it.each([
    ['~anthropic/claude-opus-latest', ['anthropic/claude-opus-4.5', 'anthropic/claude-opus-4.1']],
    ['~openai/gpt-mini-latest', ['openai/gpt-4o-mini']],
    ['~meta-llama/llama-latest', []],
  ])('%s → %j', (alias, members) => {
    expect(familyMembers(alias, catalog)).toEqual(members);
  });

  it('names the file to pin, the family when a catalog has one, and never a fixed example', () => {
    expect(aliasHint('~openai/gpt-mini-latest', 'suites/a b.yaml', catalog)).toBe(
      'run `driftcheck pin suites/a b.yaml` (it writes the model the alias points at today), or name one of its family in the test catalog: openai/gpt-4o-mini; pass --allow-alias to run it anyway',
    );
    expect(aliasHint('~meta-llama/llama-latest', null, catalog)).toBe(
      'name a concrete model (the test catalog lists none of its family); pass --allow-alias to run it anyway',
    );
    expect(aliasHint('~meta-llama/llama-latest', 'x.yaml', undefined)).not.toMatch(/anthropic|openai/);
  });
});
