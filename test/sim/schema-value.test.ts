import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PromptValues } from '../../src/sim/prompt-values.js';
import { mismatched } from '../../src/sim/schema-mismatch.js';
import { schemaValue } from '../../src/sim/schema-value.js';

// The router validates tool arguments with a draft-7 validator: so does this test (ajv's
// default draft). Formats are checked by the shapes the simulator claims to write.
const ajv = new Ajv({
  strict: false,
  formats: {
    date: /^\d{4}-\d{2}-\d{2}$/,
    'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/,
    email: /^[^@\s]+@[^@\s]+\.[^@\s]+$/,
    uri: /^https?:\/\/\S+$/,
    uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  },
});
const valid = (schema: object, value: unknown) => {
  const check = ajv.compile(schema);
  return check(value) ? 'valid' : ajv.errorsText(check.errors);
};
const write = (schema: object, prompt: string, about = '') =>
  schemaValue(schema, new PromptValues(prompt, about));

/** Schemas using every keyword the generator claims to honour. */
const SCHEMAS: [string, object][] = [
  [
    'weather',
    {
      type: 'object',
      properties: {
        city: { type: 'string' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer', minimum: 1, maximum: 7 },
      },
      required: ['city', 'days'],
      additionalProperties: false,
    },
  ],
  [
    'bounds and steps',
    {
      type: 'object',
      properties: {
        a: { type: 'number', exclusiveMinimum: 10, exclusiveMaximum: 11 },
        b: { type: 'integer', multipleOf: 5, minimum: 3 },
        c: { type: 'number', maximum: -4 },
        d: { type: 'integer', minimum: 100, maximum: 200 },
      },
      required: ['a', 'b', 'c', 'd'],
    },
  ],
  [
    'strings',
    {
      type: 'object',
      properties: {
        code: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' },
        short: { type: 'string', maxLength: 3 },
        long: { type: 'string', minLength: 30 },
        when: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
        mail: { type: 'string', format: 'email' },
        link: { type: 'string', format: 'uri' },
        ref: { type: 'string', format: 'uuid' },
        fixed: { const: 'v1' },
      },
      required: ['code', 'short', 'long', 'when', 'at', 'mail', 'link', 'ref', 'fixed'],
    },
  ],
  [
    'arrays',
    {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string' }, minItems: 2, uniqueItems: true },
        flags: { type: 'array', items: { type: 'boolean' }, minItems: 2, uniqueItems: true },
        pair: { type: 'array', items: [{ type: 'integer' }, { type: 'string' }], minItems: 2 },
        none: { type: 'array', maxItems: 0 },
      },
      required: ['tags', 'flags', 'pair', 'none'],
    },
  ],
  [
    'refs, allOf, anyOf, oneOf, nullable',
    {
      definitions: {
        address: {
          type: 'object',
          properties: { street: { type: 'string' }, zip: { type: 'string', pattern: '^\\d{5}$' } },
          required: ['street', 'zip'],
        },
        node: {
          type: 'object',
          properties: { name: { type: 'string' }, child: { $ref: '#/definitions/node' } },
          required: ['name', 'child'],
        },
      },
      type: 'object',
      properties: {
        home: { $ref: '#/definitions/address' },
        both: {
          allOf: [
            { properties: { x: { type: 'integer' } }, required: ['x'] },
            { required: ['y'], properties: { y: { type: 'boolean' } } },
          ],
        },
        either: { anyOf: [{ type: 'string', minLength: 2 }, { type: 'number' }] },
        one: {
          oneOf: [
            { type: 'integer', minimum: 5 },
            { type: 'string', maxLength: 0 },
          ],
        },
        maybe: { type: ['null', 'string'] },
        tree: { $ref: '#/definitions/node' },
      },
      required: ['home', 'both', 'either', 'one', 'maybe'],
    },
  ],
  [
    'minProperties over optional ones',
    { type: 'object', properties: { p: { type: 'string' }, q: { type: 'integer' } }, minProperties: 2 },
  ],
];

describe('arguments written from the prompt satisfy the schema (ajv, draft 7)', () => {
  it.each(SCHEMAS)('%s', (_name, schema) => {
    for (const prompt of [
      '',
      'What is the weather in Paris for 3 days in celsius?',
      'ABC-12 "quoted" 99 x@y.io',
    ]) {
      expect(
        valid(schema, write(schema, prompt)),
        `${prompt}: ${JSON.stringify(write(schema, prompt))}`,
      ).toBe('valid');
    }
  });

  it('for any prompt text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.constantFrom(...SCHEMAS), (prompt, [, schema]) => {
        expect(valid(schema, write(schema, prompt))).toBe('valid');
      }),
      { numRuns: 300, seed: 20 },
    );
  });

  it('takes values from the prompt: a proper name, the option it names, its numbers, the topic', () => {
    expect(write(SCHEMAS[0]![1], 'What is the weather in Paris for 3 days in celsius?')).toEqual({
      city: 'Paris',
      unit: 'celsius',
      days: 3,
    });
    // 12 is out of range (1–7): the minimum instead; the option not named: left out (optional).
    expect(write(SCHEMAS[0]![1], 'Weather in New York for 12 days')).toEqual({ city: 'New York', days: 1 });
    const search = { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] };
    expect(
      write(search, 'Search the docs for the refund policy', 'search_docs Search the documentation'),
    ).toEqual({
      query: 'refund policy',
    });
    const route = {
      type: 'object',
      properties: { from: { type: 'string' }, to: { type: 'string' } },
      required: ['from', 'to'],
    };
    expect(write(route, 'Book a train from Paris to Lyon')).toEqual({ from: 'Paris', to: 'Lyon' });
    expect(
      write(
        { type: 'object', properties: { forecast: { type: 'boolean' } }, required: ['forecast'] },
        'with the forecast please',
      ),
    ).toEqual({ forecast: true });
  });

  it('is the same value for the same prompt and schema', () => {
    const [, schema] = SCHEMAS[4]!;
    expect(JSON.stringify(write(schema, 'home at 10115 Berlin'))).toBe(
      JSON.stringify(write(schema, 'home at 10115 Berlin')),
    );
  });
});

describe('a schema mismatch is invalid against the schema', () => {
  it.each(SCHEMAS)('%s', (_name, schema) => {
    const value = write(schema, 'What is the weather in Paris for 3 days?');
    const wrong = mismatched(value, schema);
    expect(wrong).toBeDefined();
    expect(valid(schema, wrong)).not.toBe('valid');
  });

  it.each<[string, object]>([
    ['an object without constraints on its properties', { type: 'object' }],
    [
      'additionalProperties false alone',
      { type: 'object', properties: { a: {} }, additionalProperties: false },
    ],
    ['a typed property', { type: 'object', properties: { n: { type: ['number', 'null'] } }, required: [] }],
  ])('also for %s', (_name, schema) => {
    const wrong = mismatched(write(schema, 'n is 4'), schema);
    expect(valid(schema, wrong)).not.toBe('valid');
  });

  it('has no way to miss a schema that constrains nothing', () => {
    expect(mismatched({}, {})).toBeUndefined();
    expect(mismatched({ a: 1 }, { properties: { a: {} } })).toBeUndefined();
  });
});

describe('a string made from a pattern the prompt has nothing for', () => {
  it.each([
    '^[A-Z]{3}-\\d+$',
    '^\\d{5}$',
    '^(?:INV|ORD)_[0-9a-f]{8}$',
    '^[^@\\s]+@example\\.com$',
    'x+y*z?',
    '^\\w{2,4}\\.(png|jpe?g)$',
  ])('%s', (pattern) => {
    const schema = { type: 'string', pattern };
    expect(valid(schema, write(schema, 'nothing useful here'))).toBe('valid');
  });
});
