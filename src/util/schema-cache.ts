import type { ValidateFunction } from 'ajv';

/** A compiled validator, or why the schema does not compile. */
export type Compiled = ValidateFunction | { error: string };

/**
 * A validator cache over one lazily made Ajv (which draft is the caller's): each distinct
 * schema is compiled once per process, keyed by its JSON text, and the same schema object
 * (a suite's, checked sample after sample) is looked up without serialising it again.
 * Options every driftcheck Ajv shares: `strict: false` (a service accepts keywords Ajv does
 * not know), `addUsedSchema: false` (two schemas may share an `$id`), `validateFormats:
 * false` (no format plugin ships: `format` is an annotation only).
 */
export function schemaCache(
  makeAjv: (options: object) => { compile(schema: object): ValidateFunction },
): (schema: unknown) => Compiled {
  let ajv: { compile(schema: object): ValidateFunction } | undefined;
  const byText = new Map<string, Compiled>();
  const byObject = new WeakMap<object, Compiled>();
  return (schema) => {
    const object = typeof schema === 'object' && schema !== null ? schema : null;
    const known = object ? byObject.get(object) : undefined;
    if (known) return known;
    const key = JSON.stringify(schema) ?? 'undefined';
    let entry = byText.get(key);
    if (entry === undefined) {
      try {
        ajv ??= makeAjv({ allErrors: true, strict: false, addUsedSchema: false, validateFormats: false });
        entry = ajv.compile(schema as object);
      } catch (error) {
        entry = { error: error instanceof Error ? error.message : String(error) };
      }
      byText.set(key, entry);
    }
    if (object) byObject.set(object, entry);
    return entry;
  };
}
