import { ajvLibrary } from '../util/lazy.js';
import { type SchemaProblem, schemaCache, schemaProblemOf } from '../util/schema-cache.js';

/**
 * The draft-7 validator of a schema, or why it does not compile: the draft the router
 * validates tool arguments with, for tool parameters and response formats (`strict` on a
 * json_schema is the service's, not a schema keyword).
 */
export const draft7Validator = schemaCache('draft7', (options) => new (ajvLibrary().Ajv)(options));

/** Why a schema cannot be used under draft 7 (not an object, a pattern that cannot run, not compiling), or null. */
export function draft7Problem(schema: unknown): SchemaProblem | null {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return { pointer: '', message: 'it is not an object' };
  return schemaProblemOf(schema, 'draft7', () => {
    const v = draft7Validator(schema);
    return v instanceof Function ? null : v.error;
  });
}
