import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance } from '../../src/util/did-you-mean.js';
import { displayPath } from '../../src/yaml/display-path.js';
import { describePointer } from '../../src/yaml/locate.js';
import { parseYamlMapping } from '../../src/yaml/parse-mapping.js';
import { show, sortDiagnostics } from '../../src/yaml/show.js';

describe('did-you-mean', () => {
  it.each([
    ['', '', 0],
    ['expect', 'expect', 0],
    ['expects', 'expect', 1],
    ['modle', 'model', 1], // a swap of neighbours is one edit
    ['lsit', 'list', 1],
    ['lsit', 'init', 2],
    ['kitten', 'sitting', 3],
  ])('editDistance(%s, %s) = %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  const suiteKeys = ['suite', 'service', 'model', 'params', 'system', 'repeat', 'cases'];
  it.each([
    ['modle', suiteKeys, 'model'],
    ['case', suiteKeys, 'cases'],
    ['servce', suiteKeys, 'service'],
    ['Model', suiteKeys, 'model'],
    ['timeout', ['timeout_s', 'retries'], 'timeout_s'],
    ['param', suiteKeys, 'params'],
    ['expects', ['id', 'prompt', 'expect'], 'expect'],
    ['zzz', suiteKeys, undefined],
    ['temperature', suiteKeys, undefined],
    ['lsit', ['run', 'init', 'list', 'merge'], 'list'],
    ['--repaet', ['--repeat', '--resume', '--report-dir'], '--repeat'],
  ])('didYouMean(%s) → %s', (word, keys, guess) => {
    expect(didYouMean(word, keys)).toBe(guess);
  });
});

describe('locate', () => {
  const text = [
    'suite: s', // 1
    'params: { max_tokens: 5 }', // 2
    'cases:', // 3
    '  - id: a', // 4
    '    expect:', // 5
    '      - contains: x', // 6
    '    empty:', // 7
  ].join('\n');
  const parsed = parseYamlMapping(text, 'f.yaml', 'suite', 'x');
  if (!parsed.value) throw new Error('fixture text must parse');
  const engines = { full: parsed.value };

  it.each([
    ['', false, '1:1'],
    ['/suite', false, '1:8'],
    ['/suite', true, '1:1'],
    ['/params/max_tokens', false, '2:23'],
    ['/params/max_tokens', true, '2:11'],
    ['/cases/0', false, '4:5'],
    ['/cases/0/expect/0/contains', false, '6:19'],
    ['/cases/0/expect/0/contains', true, '6:9'],
    // An empty value has no node of its own: the key stands in for it.
    ['/cases/0/empty', false, '7:5'],
    // A path that does not exist stops at the deepest node found.
    ['/cases/0/missing', true, '4:5'],
    ['/cases/7/id', false, '4:3'],
  ])('%s (key: %s) → %s on the full path', (pointer, key, at) => {
    for (const yaml of Object.values(engines)) {
      const { line, column } = yaml.locate(pointer, { key });
      expect(`${line}:${column}`).toBe(at);
    }
  });

  it.each([
    ['', ''],
    ['/cases/0/expect/1/regex', 'cases[0].expect[1].regex'],
    ['/services/a~1b/headers/X~0Y', 'services.a/b.headers.X~Y'],
  ])('describePointer(%s) = %s', (pointer, shown) => {
    expect(describePointer(pointer)).toBe(shown);
  });
});

describe('show', () => {
  it.each([
    ['30 days', "'30 days'"],
    ['line\nbreak', "'line break'"],
    ['x'.repeat(60), `'${'x'.repeat(39)}…'`],
    ['sk-or-v1-abcdefabcdefabcdef', '(a value that looks like a secret — not shown)'],
    ['token aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gQ3sT5vX7 here', '(a value that looks like a secret — not shown)'],
    ['refund-window-for-customers-in-the-eu-region', "'refund-window-for-customers-in-the-eu-r…'"],
    [3, '3'],
    [[1], 'a list'],
    [{ a: 1 }, 'a mapping'],
  ])('show(%j) = %s', (value, shown) => {
    expect(show(value)).toBe(shown);
  });

  it('sorts diagnostics by file and position and drops exact duplicates', () => {
    const d = (file: string, line: number, column: number, message = 'm') => ({
      file,
      line,
      column,
      message,
    });
    expect(
      sortDiagnostics([d('b', 1, 1), d('a', 2, 1), d('a', 1, 9), d('a', 1, 9), d('a', 1, 9, 'other')]),
    ).toEqual([d('a', 1, 9), d('a', 1, 9, 'other'), d('a', 2, 1), d('b', 1, 1)]);
  });
});

describe('displayPath', () => {
  it.each([
    ['/work/p/suites/a.yaml', '/work/p', 'suites/a.yaml'],
    ['/elsewhere/a.yaml', '/work/p', '/elsewhere/a.yaml'],
    ['/work/p', '/work/p', '/work/p'],
  ])('%s from %s → %s', (absolute, cwd, shown) => {
    expect(displayPath(absolute, cwd)).toBe(shown);
  });
});
