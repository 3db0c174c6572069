import { compiledValidator } from './validators.js';
import type { ErrorObject, ValidateFunction } from 'ajv';

/** The JSON Schema drafts users' schemas are written in: draft 7 (tools, response formats) and 2020-12 (json_schema checks). */
export type MetaDraft = 'draft7' | 'draft2020';

/** Each draft's meta-schema id, as a schema's `$schema` names it (a trailing `#` aside). */
const META_IDS: Record<MetaDraft, string> = {
  draft7: 'http://json-schema.org/draft-07/schema',
  draft2020: 'https://json-schema.org/draft/2020-12/schema',
};

/**
 * The draft's meta-schema validator `npm run build` compiled (scripts/compile-schemas.mjs), or
 * null when running from src (tests): then Ajv checks a schema against its meta-schema itself.
 * Ajv compiled the meta-schema on the first user schema of every process: ~50 ms of each
 * `driftcheck validate` (CPU profile of `validate suites/demo`: _compileMetaSchema 50 of 254 ms),
 * ~2.5 ms to load compiled.
 */
const precompiledMeta = (draft: MetaDraft): ValidateFunction | null => compiledValidator(`meta-${draft}`);

/** What an Ajv of a draft's users' schemas is made with: its own meta-schema check only when none was compiled. */
export function metaOptions(draft: MetaDraft): { validateSchema: boolean } {
  return { validateSchema: precompiledMeta(draft) === null };
}

/** What of an Ajv checkAgainstMeta touches. */
export interface MetaAjv {
  validateSchema(schema: object, throwOrLogError?: boolean): unknown;
  errorsText(errors?: ErrorObject[] | null): string;
}

/**
 * Throws as Ajv's compile does (`schema is invalid: data/type must be …`) when a user's schema
 * breaks its draft's meta-schema, checked by the compiled validator. A schema naming another
 * `$schema` is left to Ajv, which checks it against that one or says it knows no such schema.
 * Nothing to do where Ajv checks schemas itself (metaOptions).
 */
export function checkAgainstMeta(ajv: MetaAjv, draft: MetaDraft, schema: object): void {
  const meta = precompiledMeta(draft);
  if (meta === null) return;
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared !== undefined && String(declared).replace(/#$/, '') !== META_IDS[draft]) {
    ajv.validateSchema(schema, true);
    return;
  }
  if (!meta(schema)) throw new Error(`schema is invalid: ${ajv.errorsText(meta.errors)}`);
}
