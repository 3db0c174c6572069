import { describe, expect, it } from 'vitest';
import { schemaCache } from '../../src/util/schema-cache.js';
import { ajvLibrary } from '../../src/util/lazy.js';

describe('schemaCache', () => {
  it('compiles each distinct schema once, by its text or its object, and keeps why one does not compile', () => {
    let compiles = 0;
    const cached = schemaCache((options) => {
      const ajv = new (ajvLibrary().Ajv)(options);
      return { compile: (schema: object) => (compiles++, ajv.compile(schema)) };
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
