import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse.js';
import { timerMs } from '../../src/service/exchange.js';
import { normalizeCompletion } from '../../src/service/normalize.js';
import { parseSuite } from '../../src/suite/parse.js';

/** Bugs the hostile and fuzz tests found, pinned one by one at the level where they lived. */

const SUITE = 'suites/s.yaml';
const head = 'suite: s\nservice: router\nmodel: openai/gpt-4o-mini\n';
const oneCase = 'cases:\n  - id: a\n    prompt: Hello\n';
const errorsOf = (text: string) =>
  (parseSuite(text, SUITE).errors ?? []).map((d) => `${d.line}:${d.column} ${d.message}`);

describe('suite and config loading', () => {
  it.each([
    ['NUL bytes', 'suite: a\u0000b\n', /binary file/],
    ['more text than the size limit', `# ${'x'.repeat(5 * 1024 * 1024)}\n`, /too large/],
  ])('positions a refusal of %s at 1:1, not 0:0', (_name, text, message) => {
    const [first] = parseSuite(text, SUITE).errors ?? [];
    expect(first).toMatchObject({ line: 1, column: 1, message: expect.stringMatching(message) });
  });

  it.each([
    [
      '!!omap params (silently became {})',
      `${head}params: !!omap [ { max_tokens: 5 } ]\n${oneCase}`,
      '4:16',
      /!!omap/,
    ],
    ['a !!set', `${head}cases: !!set { a, b }\n`, '4:14', /!!set/],
    ['a !!binary id', `${head}cases:\n  - id: !!binary aGk=\n    prompt: Hello\n`, '5:18', /!!binary/],
    [
      'a %YAML 1.1 date',
      `%YAML 1.1\n---\nsuite: 2024-01-01\nservice: router\nmodel: m/x\n${oneCase}`,
      '3:8',
      /date\/time/,
    ],
    [
      'an !!omap json_schema (always passed)',
      `${head}${oneCase}    expect: [ { json_schema: !!omap [ { type: object } ] } ]\n`,
      '7:37',
      /!!omap/,
    ],
    ['a list as a key', `${head}? [a, b]\n: 1\n${oneCase}`, '4:3', /key must be plain text/],
    [
      'nesting past 64 levels',
      `${head}${oneCase}    sim: ${'['.repeat(70)}${']'.repeat(70)}\n`,
      '7:71',
      /nests more than 64/,
    ],
  ])('refuses %s with a position', (_name, text, at, message) => {
    const found = errorsOf(text).find((e) => e.startsWith(`${at} `));
    expect(found, errorsOf(text).join('\n')).toMatch(message);
  });

  it('names parser stack exhaustion as too-deep nesting', () => {
    const [first] = errorsOf(`${head}x: ${'['.repeat(5000)}${']'.repeat(5000)}\n`);
    expect(first).toMatch(/nests too deeply/);
  });

  it.each([
    ['double', `${head}cases:\n  - id: a\n    prompt: "say \\"hi\\" and stop\n`, '6:13'],
    ['single', `${head}cases:\n  - id: a\n    prompt: 'it''s open\n`, '6:13'],
  ])('points an unclosed %s quote at where it opens', (_name, text, at) => {
    const [first] = errorsOf(text);
    expect(first).toMatch(
      new RegExp(`^${at} YAML syntax error: Missing closing .quote \\(the quote opened here`),
    );
  });

  it('reads files with old-Mac (CR-only) line ends', () => {
    const parsed = parseSuite(`${head}${oneCase}`.replace(/\n/g, '\r'), SUITE);
    expect(parsed.errors).toBeUndefined();
    expect(parsed.value?.cases[0]?.location).toMatchObject({ line: 5, column: 5 });
  });

  it.each([
    [
      'a suite repeat',
      `${head}repeat: 123456789012345678901234567890\n${oneCase}`,
      "4:9 'repeat' must be at most 1000",
    ],
    [
      'a case repeat',
      `${head}${oneCase}    repeat: 100000000\n`,
      "7:13 'cases[0].repeat' must be at most 1000",
    ],
    [
      'too many samples in all',
      `${head}repeat: 1000\ncases:\n${Array.from({ length: 101 }, (_, i) => `  - { id: c${i}, prompt: hi }\n`).join('')}`,
      '1:8 the suite plans 101000 samples',
    ],
  ])('refuses %s no run could finish (it was planned, filling memory)', (_name, text, expected) => {
    expect(errorsOf(text).join('\n')).toContain(expected);
  });

  it('says .inf and .nan, not "must be a number, got a number"', () => {
    const parsed = parseConfig(
      'services:\n  r: { kind: router, base_url: https://a.example/api/v1, api_key_env: K, timeout_s: .inf, retries: .nan }\n',
      'c.yaml',
      {},
    );
    const messages = (parsed.errors ?? []).map((d) => d.message);
    expect(messages).toContain("'services.r.timeout_s' must be a number, got infinity (.inf)");
    expect(messages).toContain("'services.r.retries' must be an integer, got not-a-number (.nan)");
  });
});

describe('service responses', () => {
  it.each([
    [42, /content is a number, not text/],
    [{ text: 'hi' }, /content is a object, not text/],
    [[1, 2], /content is a list that is not content parts/],
  ])('treats message content %j as a malformed body (was: empty_content)', (content, message) => {
    const { error } = normalizeCompletion('router', { choices: [{ message: { content } }] }, 'm');
    expect(error?.kind).toBe('bad_response');
    expect(error?.message).toMatch(message);
  });

  it.each([
    [0.0015, 1],
    [1.5, 2],
    [2500, 2500],
    [1e15, 2 ** 31 - 1],
    [Infinity, 2 ** 31 - 1],
  ])('turns a %d ms time-out into a timer Node accepts (%d ms)', (ms, expected) => {
    expect(timerMs(ms)).toBe(expected);
    // Past 2^31 - 1 Node warns and fires after 1 ms: the request would be aborted at once.
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      expect(AbortSignal.timeout(timerMs(ms)).aborted).toBe(false);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => w.name)).not.toContain('TimeoutOverflowWarning');
  });
});
