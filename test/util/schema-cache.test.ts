import { describe, expect, it } from 'vitest';
import { compileAlone, SCHEMA_OPTIONS, schemaCache } from '../../src/util/schema-cache.js';
import { ajvLibrary } from '../../src/util/lazy.js';

describe('schemaCache', () => {
  it('compiles each distinct schema once, by its text or its object, and keeps why one does not compile', () => {
    let compiles = 0;
    const cached = schemaCache('draft7', (options) => {
      const ajv = new (ajvLibrary().Ajv)(options);
      return {
        compile: (schema: object) => (compiles++, ajv.compile(schema)),
        validateSchema: (schema: object, raise?: boolean) => ajv.validateSchema(schema, raise),
        errorsText: (errors) => ajv.errorsText(errors),
        removeSchema: (schema: object) => ajv.removeSchema(schema),
        schemas: ajv.schemas,
        refs: ajv.refs,
      };
    });
    const schema = { type: 'object', required: ['city'] };
    const first = cached(schema);
    expect(cached(schema)).toBe(first);
    expect(cached({ type: 'object', required: ['city'] })).toBe(first);
    expect(compiles).toBe(1);
    expect(first instanceof Function && first({ city: 'Paris' })).toBe(true);
    const broken = cached({ type: 'nope' });
    expect(broken).toMatchObject({ error: expect.stringMatching(/type/) });
    expect(cached({ type: 'nope' })).toBe(broken);
    expect(compiles).toBe(2);
  });
});

describe('compileAlone', () => {
  it('compiles a schema that refers to itself, and leaves no $id behind, its own or a nested one', () => {
    const ajv = new (ajvLibrary().Ajv)(SCHEMA_OPTIONS);
    const before = [Object.keys(ajv.schemas).length, Object.keys(ajv.refs).length];
    const tree = compileAlone(ajv, { type: 'array', items: { $ref: '#' } }, 'draft7');
    expect([tree([[[]], []]), tree([[1]])]).toEqual([true, false]);
    const object = compileAlone(
      ajv,
      {
        $id: 'https://example.com/a',
        type: 'object',
        definitions: { b: { $id: 'https://example.com/b', type: 'number' } },
        properties: { next: { $ref: '#' }, n: { $ref: 'https://example.com/b' } },
      },
      'draft7',
    );
    expect([object({ next: { n: 1 } }), object({ next: { n: 'x' } })]).toEqual([true, false]);
    // The same ids again, meaning something else: no clash, and each schema keeps its own.
    const string = compileAlone(ajv, { $id: 'https://example.com/a', type: 'string' }, 'draft7');
    const text = compileAlone(
      ajv,
      {
        definitions: { b: { $id: 'https://example.com/b', type: 'string' } },
        $ref: 'https://example.com/b',
      },
      'draft7',
    );
    expect([string('x'), string({}), text('x'), text(1), object({ n: 2 })]).toEqual([
      true,
      false,
      true,
      false,
      true,
    ]);
    // An id another schema defined does not resolve, and a failed compile leaves nothing either.
    expect(() => compileAlone(ajv, { $ref: 'https://example.com/a' }, 'draft7')).toThrow(
      /can't resolve reference/,
    );
    expect(() => compileAlone(ajv, { $id: 'https://example.com/c', type: 'nope' }, 'draft7')).toThrow();
    expect([Object.keys(ajv.schemas).length, Object.keys(ajv.refs).length]).toEqual(before);
  });
});
