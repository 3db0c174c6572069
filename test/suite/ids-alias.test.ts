import { describe, expect, it } from 'vitest';
import { isAlias } from '../../src/suite/alias.js';
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
    ['ünïcode', 'start with a letter or digit'],
  ])('rejects %j: %s', (id, reason) => {
    expect(ID_PATTERN.test(id)).toBe(false);
    const problem = explainBadId(id);
    expect(problem?.message).toContain(reason);
    expect(problem?.hint).toContain("letters, digits, '.', '_' and '-'");
  });
});
