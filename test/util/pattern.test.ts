import { describe, expect, it } from 'vitest';
import { compilePattern, linearRegExp, schemaPatternProblem } from '../../src/util/pattern.js';

/** Texts each pattern is tried on: white space JavaScript knows and RE2 does not, line ends, astral characters. */
const TEXTS = [
  '',
  'Refund within 30 days.',
  'REFUND\r\nwithin\u2028thirty\u00a0days',
  'a\u202fb c\td\ve\ufeff',
  'x😀y αβγ Ελλάδα',
  'price: $5.00 {total} [x] ^ a-b',
  'line one\nline two\rline three',
  'tab\there\u0008bs \u0001ctl',
  'ſ K k s',
  // Short: JavaScript's backtracking on `^(a+)+$` doubles with each `a`.
  'aaaaaaaaaaaa!',
];

/** Patterns with the flags they are written with: each must find what JavaScript finds, where it finds it. */
const PATTERNS: [string, string][] = [
  ['refund', ''],
  ['refund', 'i'],
  ['\\b30 days\\b', ''],
  ['^line', 'm'],
  ['one$', 'm'],
  ['days\\.$', ''],
  ['a.b', ''],
  ['a.b', 's'],
  ['.+', ''],
  ['.+', 's'],
  ['\\s+', ''],
  ['\\S+', ''],
  ['[\\s]+', ''],
  ['[^\\s]+', ''],
  ['[\\S]+', ''],
  ['[^\\S]+', ''],
  ['[^\\S\\n]+', ''],
  ['[a\\S]', ''],
  ['\\d{2}', ''],
  ['\\w+', ''],
  ['[\\w-]+', ''],
  ['[\\d-z]+', ''],
  ['[a-c-e]+', ''],
  ['\\$\\d+\\.\\d{2}', ''],
  ['\\{total\\}', ''],
  ['{total}', ''],
  ['a{,3}', ''],
  ['x{2}', ''],
  ['\\[x\\]', ''],
  ['[[x]', ''],
  ['[[:alpha:]]+', ''],
  ['\\^', ''],
  ['[]', ''],
  ['[^]+', ''],
  ['(?<word>[a-z]+) (?:within)', ''],
  ['\\u0041', 'i'],
  ['\\u{1F600}', 'u'],
  ['\\uD83D\\uDE00', ''],
  ['😀', 'u'],
  ['\\x41', 'i'],
  ['\\cI', ''],
  ['[\\cI]', ''],
  ['\\c', ''],
  ['\\0', ''],
  ['\\11', ''],
  ['\\8', ''],
  ['[\\b]', ''],
  ['\\a\\z', ''],
  ['\\p{L}+', 'u'],
  ['\\p{Letter}+', 'u'],
  ['\\p{Script=Greek}+', 'u'],
  ['\\P{L}+', 'u'],
  ['[\\p{Lu}\\d]+', 'u'],
  ['\\p{L}', ''],
  ['k', 'i'],
  ['thirty|days', 'gi'],
  ['within', 'y'],
  ['Refund', 'y'],
  ['a+?', ''],
  ['(a|ab)(c|bcd)?', ''],
  ['^(a+)+$', ''],
  ['(a*)*b', ''],
  ['', ''],
  ['\\/', ''],
  ['/', ''],
];

describe('compilePattern: JavaScript patterns matched in linear time', () => {
  it.each(PATTERNS)('/%s/%s finds what JavaScript finds, where it finds it', (source, flags) => {
    const compiled = compilePattern(source, flags);
    if ('error' in compiled) throw new Error(compiled.error);
    const js = new RegExp(source, flags);
    expect(compiled.pattern.text).toBe(String(js));
    for (const text of TEXTS) {
      js.lastIndex = 0;
      const m = js.exec(text);
      const expected = m ? { index: m.index, length: m[0].length } : null;
      expect(compiled.pattern.search(text), JSON.stringify(text)).toEqual(expected);
      expect(compiled.pattern.test(text)).toBe(expected !== null);
    }
  });

  it('differs from JavaScript where README says: lines end at \\n only under m, and i folds as Unicode does', () => {
    const compiled = (source: string, flags: string) => {
      const c = compilePattern(source, flags);
      if ('error' in c) throw new Error(c.error);
      return c.pattern;
    };
    // JavaScript's m also ends a line at \r, U+2028 and U+2029; RE2's at \n alone.
    expect(/two$/m.test('line two\r\nthree')).toBe(true);
    expect(compiled('two$', 'm').test('line two\r\nthree')).toBe(false);
    expect(compiled('two\r?$', 'm').test('line two\r\nthree')).toBe(true);
    // JavaScript's i without u keeps the Kelvin sign and the long s apart from k and s.
    expect(/k/i.test('\u212a')).toBe(false);
    expect(compiled('k', 'i').test('\u212a')).toBe(true);
    expect(/k/iu.test('\u212a')).toBe(true);
  });

  it('matches a catastrophic pattern on a hostile answer without backtracking', () => {
    // JavaScript takes about 135 s on 40 a's and a '!' (not run here); a megabyte is nothing to RE2.
    const compiled = compilePattern('^(a+)+$');
    if ('error' in compiled) throw new Error(compiled.error);
    expect(compiled.pattern.test(`${'a'.repeat(40)}!`)).toBe(false);
    expect(compiled.pattern.test(`${'a'.repeat(1_000_000)}!`)).toBe(false);
    expect(compiled.pattern.search('a'.repeat(1_000_000))).toEqual({ index: 0, length: 1_000_000 });
  });

  it.each([
    ['(?=.*\\d)', '', /a lookahead \(\?=…\) cannot run: .*linear time.*no lookaround/, /second `regex`/],
    ['^(?!.*error)', '', /a lookahead \(\?!…\) cannot run/, /not_contains/],
    ['(?<=\\$)\\d+', '', /a lookbehind \(\?<=…\) cannot run/, /part of the pattern/],
    ['(?<!x)y', '', /a lookbehind \(\?<!…\) cannot run/, /part of the pattern/],
    ['(["\'])x\\1', '', /a backreference \(\\1\) cannot run: .*no backreference/, /\(\?:'\[\^'\]\*'/],
    ['(?<q>a)\\k<q>', '', /a backreference \(\\k<q>\) cannot run/, /repeated text/],
    ['a{1001}', '', /cannot run in linear time \(RE2\): invalid repeat count/, /repeat counts up to 1000/],
    ['\\p{Script_Extensions=Greek}', 'u', /script extensions/, /\\p\{Greek\}/],
    ['\\p{sc=Grek}', 'u', /cannot run in linear time/, /\\p\{Greek\}/],
    ['\\uD83D', '', /lone surrogate/, /both halves/],
  ])('refuses /%s/%s with why and what to write instead', (source, flags, error, hint) => {
    const compiled = compilePattern(source, flags);
    expect(compiled).toMatchObject({
      error: expect.stringMatching(error),
      hint: expect.stringMatching(hint),
    });
    expect((compiled as { error: string }).error).toMatch(/RE2/);
  });

  it('gives JavaScript syntax errors in its own words, without a hint', () => {
    expect(compilePattern('(')).toEqual({ error: expect.stringMatching(/Unterminated group/) });
    expect(compilePattern('a', 'q')).toEqual({ error: expect.stringMatching(/Invalid flags/) });
  });
});

describe('linearRegExp and schemaPatternProblem (JSON Schema patterns)', () => {
  it('hands ajv a matcher, and throws for a pattern that cannot run', () => {
    expect(linearRegExp('^[a-z]+$', 'u').test('abc')).toBe(true);
    // ajv keeps one pattern per toString(): each must say its own, as a RegExp does.
    expect(String(linearRegExp('^b$', 'u'))).toBe('/^b$/u');
    expect(String(linearRegExp('^c$', 'u'))).toBe('/^c$/u');
    expect(() => linearRegExp('(?=a)', 'u')).toThrow(/lookahead/);
  });

  it('finds the first pattern that cannot run, with its place, and passes over data keywords', () => {
    const schema = {
      type: 'object',
      properties: {
        pattern: { type: 'string', pattern: '^\\w+$' },
        code: { type: 'string', pattern: '^(?!x)' },
      },
      const: { pattern: '(?=ignored)' },
      examples: [{ pattern: '\\1' }],
    };
    expect(schemaPatternProblem(schema)).toMatchObject({
      pointer: '/properties/code/pattern',
      message: expect.stringMatching(/^the pattern "\^\(\?!x\)" cannot be used: a lookahead/),
    });
    expect(schemaPatternProblem({ patternProperties: { '^(?<=a)b$': {} } })).toMatchObject({
      pointer: '/patternProperties/^(?<=a)b$',
    });
    expect(schemaPatternProblem({ items: [{ $defs: { 'a/b': { pattern: '(a)\\1' } } }] })).toMatchObject({
      pointer: '/items/0/$defs/a~1b/pattern',
    });
    expect(schemaPatternProblem({ type: 'array', items: { $ref: '#' }, pattern: '^a+$' })).toBeNull();
  });
});
