import { describe, expect, it } from 'vitest';
import { extractJson } from '../../src/checks/extract-json.js';
import { runChecks } from '../../src/checks/run.js';
import { contextOf } from '../helpers/check-context.js';
import type { Completion } from '../../src/record/answer.js';

const order = {
  type: 'object',
  required: ['order_id'],
  properties: { order_id: { type: 'string' }, items: { type: 'array', items: { type: 'integer' } } },
};

function completion(content: string): Completion {
  return { id: null, model: null, content, finish_reason: 'stop', usage: null };
}

function check(content: string, schema: Record<string, unknown> = order) {
  const [result] = runChecks([{ type: 'json_schema', value: schema }], contextOf(completion(content)));
  return result!;
}

describe('json_schema check', () => {
  it.each([
    ['bare JSON', '{"order_id": "A1"}', /whole content/],
    [
      '```json fence with prose',
      'Here you go:\n```json\n{"order_id": "A1", "items": [1, 2]}\n```\nAnything else?',
      /code fence/,
    ],
    ['unlabelled fence', '```\n{"order_id": "A1"}\n```', /code fence/],
    ['JSON embedded in prose', 'The order is {"order_id": "A1"} as requested.', /embedded in text/],
    ['braces inside strings', 'Result: {"order_id": "a}b{c"} done', /embedded in text/],
    ['skips a non-JSON brace first', 'Use {curly} braces: {"order_id": "A1"}', /embedded in text/],
    [
      'prose in an unlabelled fence, JSON after it',
      '```\nnot json\n```\nSo: {"order_id": "A1"}',
      /embedded in text/,
    ],
    ['skips a non-json fence', '```python\nprint({1})\n```\n```json\n{"order_id": "A1"}\n```', /code fence/],
  ])('passes: %s', (_name, content, message) => {
    const result = check(content);
    expect(result.pass).toBe(true);
    expect(result.message).toMatch(message);
  });

  it.each([
    [
      'missing required property',
      '{"items": []}',
      /does not match the schema: \(root\) must have required property 'order_id'/,
    ],
    [
      'wrong type deep inside, with instancePath',
      '{"order_id": "A1", "items": [1, "two"]}',
      /\/items\/1 must be integer/,
    ],
    [
      'parse error in a fence',
      '```json\n{"order_id": "A1",}\n```',
      /JSON in the code fence does not parse: /,
    ],
    ['truncated fence', '```json\n{"order_id": "A1", "ite', /never closed: output truncated\?/],
    [
      'truncated embedded value',
      'Sure! {"order_id": "A1", "items": [1, 2',
      /never closed \(output truncated\?\)/,
    ],
    ['no JSON at all', 'I cannot help with that.', /no JSON value found/],
    ['empty content', '   ', /content is empty/],
  ])('fails: %s', (_name, content, message) => {
    const result = check(content);
    expect(result.pass).toBe(false);
    expect(result.message).toMatch(message);
  });

  it('lists at most three Ajv errors and counts the rest', () => {
    const schema = { type: 'object', required: ['a', 'b', 'c', 'd', 'e'] };
    const result = check('{}', schema);
    expect(result.pass).toBe(false);
    expect(result.message).toMatch(/\(\+2 more\)$/);
  });

  it('names an additional property', () => {
    const schema = { type: 'object', additionalProperties: false, properties: { a: {} } };
    expect(check('{"a": 1, "zz": 2}', schema).message).toMatch(/must NOT have additional properties 'zz'/);
  });

  it('uses JSON Schema 2020-12 keywords (prefixItems)', () => {
    const schema = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] };
    expect(check('["a", 1]', schema).pass).toBe(true);
    expect(check('[1, "a"]', schema).pass).toBe(false);
  });

  it('reports an invalid schema instead of throwing', () => {
    const result = check('{}', { type: 'no-such-type' });
    expect(result.pass).toBe(false);
    expect(result.message).toMatch(/invalid JSON schema in the suite/);
  });

  it('lets two different schemas share an $id', () => {
    expect(check('{"a": 1}', { $id: 'https://x.test/s', type: 'object' }).pass).toBe(true);
    expect(check('{"a": 1}', { $id: 'https://x.test/s', type: 'array' }).pass).toBe(false);
  });

  it('treats format as an annotation (no format plugin ships)', () => {
    expect(
      check('{"when": "not a date"}', { properties: { when: { type: 'string', format: 'date-time' } } }).pass,
    ).toBe(true);
  });
});

describe('extractJson', () => {
  it.each([
    ['a scalar as the whole content', '42', 42],
    ['an array in prose', 'ids: [1, 2, 3].', [1, 2, 3]],
    ['escaped quotes in strings', 'x {"q": "say \\"}\\" now"} y', { q: 'say "}" now' }],
    ['the first of two values', '{"a": 1} and {"b": 2}', { a: 1 }],
  ])('%s', (_name, content, value) => {
    expect(extractJson(content)).toMatchObject({ value });
  });
});

describe('JSON nested deeper than driftcheck reads', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const recursive = { $defs: { n: { type: 'array', items: { $ref: '#/$defs/n' } } }, $ref: '#/$defs/n' };

  it.each([
    ['the whole content', nested(20_000)],
    ['a code fence', `here:\n\`\`\`json\n${nested(300)}\n\`\`\``],
    ['prose', `the answer is ${nested(300)}, done`],
  ])('in %s is an error, not a stack overflow', (_where, content) => {
    expect(extractJson(content)).toMatchObject({ error: expect.stringMatching(/more than 256 levels deep/) });
    expect(check(content, recursive)).toMatchObject({ pass: false, message: expect.stringMatching(/256/) });
  });

  it('256 levels still validate', () => {
    expect(check(nested(256), recursive).pass).toBe(true);
  });
});
