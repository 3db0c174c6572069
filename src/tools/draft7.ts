import type { Ajv, ValidateFunction } from 'ajv';
import { ajvLibrary } from '../util/lazy.js';

/**
 * JSON Schema draft 7, the draft the router validates tool arguments with: one Ajv for
 * tool parameters and response formats. `strict: false` — a service accepts keywords Ajv
 * does not know (`strict` on a json_schema is the service's, not a schema keyword);
 * `addUsedSchema: false` lets two schemas share an `$id`.
 */
let ajv: Ajv | undefined;

/** Compiled validators by schema JSON text: each distinct schema is compiled once per process. */
const compiled = new Map<string, ValidateFunction | { error: string }>();

/** The draft-7 validator of a schema, or why it does not compile. */
export function draft7Validator(schema: unknown): ValidateFunction | { error: string } {
  const key = JSON.stringify(schema) ?? 'undefined';
  let entry = compiled.get(key);
  if (entry === undefined) {
    try {
      ajv ??= new (ajvLibrary().Ajv)({
        allErrors: true,
        strict: false,
        addUsedSchema: false,
        validateFormats: false,
      });
      entry = ajv.compile(schema as object);
    } catch (error) {
      entry = { error: error instanceof Error ? error.message : String(error) };
    }
    compiled.set(key, entry);
  }
  return entry;
}

/** Why a schema does not compile under draft 7, or null when it does. */
export function draft7Problem(schema: unknown): string | null {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'it is not an object';
  const v = draft7Validator(schema);
  return v instanceof Function ? null : v.error;
}
