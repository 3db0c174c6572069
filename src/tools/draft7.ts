import { ajvLibrary } from '../util/lazy.js';
import { schemaCache } from '../util/schema-cache.js';

/**
 * The draft-7 validator of a schema, or why it does not compile: the draft the router
 * validates tool arguments with, for tool parameters and response formats (`strict` on a
 * json_schema is the service's, not a schema keyword).
 */
export const draft7Validator = schemaCache((options) => new (ajvLibrary().Ajv)(options));

/** Why a schema does not compile under draft 7, or null when it does. */
export function draft7Problem(schema: unknown): string | null {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'it is not an object';
  const v = draft7Validator(schema);
  return v instanceof Function ? null : v.error;
}
