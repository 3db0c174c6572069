import type { ErrorObject, ValidateFunction } from 'ajv';
import { checkAgainstMeta, type MetaAjv, type MetaDraft, metaOptions } from './meta-schema.js';
import { linearRegExp, schemaPatternProblem } from './pattern.js';
import { knownSound, rememberSound } from './verdict-cache.js';

/** A compiled validator, or why the schema does not compile. */
export type Compiled = ValidateFunction | { error: string };

/**
 * Options every Ajv of a user's or a service's schema takes: `allErrors`; `strict: false`
 * (a service accepts keywords Ajv does not know); `validateFormats: false` (no format plugin
 * ships: `format` is an annotation only); every `pattern` matched in linear time
 * (util/pattern.ts), so no answer can stall a run.
 */
export const SCHEMA_OPTIONS = {
  allErrors: true,
  strict: false,
  validateFormats: false,
  code: { regExp: linearRegExp },
} as const;

/** Why a schema a user gives cannot be used, for validate to say at its place. */
export interface SchemaProblem {
  /** JSON pointer under the schema ('' for the whole). */
  pointer: string;
  message: string;
  /** What to write instead, when the problem is one linear-time matching has. */
  hint?: string;
}

/**
 * A schema's problem under `draft`: first a pattern linear-time matching cannot run (at the
 * pattern, with what to write instead), else why it does not compile (`compileError`), else
 * null. A schema found sound by an earlier command is not judged again (util/verdict-cache.ts).
 */
export function schemaProblemOf(
  schema: unknown,
  draft: MetaDraft,
  compileError: () => string | null,
  /** The schema as JSON, when the caller has it already. */
  text: string = JSON.stringify(schema) ?? 'undefined',
): SchemaProblem | null {
  if (knownSound(`schema ${draft}`, text)) return null;
  const pattern = schemaPatternProblem(schema);
  if (pattern)
    return { pointer: pattern.pointer, message: `${pattern.path}: ${pattern.message}`, hint: pattern.hint };
  const error = compileError();
  if (error !== null) return { pointer: '', message: error };
  rememberSound(`schema ${draft}`, text);
  return null;
}

/** What of an Ajv compileAlone touches: its compile, its meta-schema check, and where it keeps schemas by id. */
interface AjvLike extends MetaAjv {
  compile(schema: object): ValidateFunction;
  removeSchema(schema: object): unknown;
  readonly schemas: object;
  readonly refs: object;
}

/**
 * Compiles a schema a user or a service gave as if the Ajv had never seen another: the
 * schema is added while it compiles (a schema that refers to itself, `items: { $ref: "#" }`,
 * the services' documented form of a recursive structured output, resolves `#` through
 * it: with Ajv's `addUsedSchema: false` it was "can't resolve reference # from id #"), then
 * everything the compile added is taken out again, so a user schema's `$id` — its own or a
 * nested one — neither clashes with nor resolves in the next compile. The schema is checked
 * against its draft's meta-schema first (made with metaOptions, the Ajv leaves that to us).
 */
export function compileAlone(ajv: AjvLike, schema: object, draft: MetaDraft): ValidateFunction {
  checkAgainstMeta(ajv, draft, schema);
  const schemas = new Set(Object.keys(ajv.schemas));
  const refs = new Set(Object.keys(ajv.refs));
  try {
    return ajv.compile(schema);
  } finally {
    ajv.removeSchema(schema);
    for (const key of Object.keys(ajv.schemas))
      if (!schemas.has(key)) delete (ajv.schemas as Record<string, unknown>)[key];
    for (const key of Object.keys(ajv.refs))
      if (!refs.has(key)) delete (ajv.refs as Record<string, unknown>)[key];
  }
}

/**
 * A validator cache over one lazily made Ajv of the draft given: each distinct
 * schema is compiled once per process, keyed by its JSON text, and the same schema object
 * (a suite's, checked sample after sample) is looked up without serialising it again.
 */
export function schemaCache(
  draft: MetaDraft,
  makeAjv: (options: object) => AjvLike,
): (schema: unknown) => Compiled {
  let ajv: AjvLike | undefined;
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
        ajv ??= makeAjv({ ...SCHEMA_OPTIONS, ...metaOptions(draft) });
        entry = compileAlone(ajv, schema as object, draft);
      } catch (error) {
        entry = { error: error instanceof Error ? error.message : String(error) };
      }
      byText.set(key, entry);
    }
    if (object) byObject.set(object, entry);
    return entry;
  };
}

/** How many Ajv errors a message lists before summarising the rest. */
const MAX_ERRORS = 3;

/** `/a/0 must be string` — the instance path says where in the JSON value it failed. */
export function formatAjvErrors(errors: ErrorObject[]): string {
  const parts = errors.slice(0, MAX_ERRORS).map((e) => {
    const where = e.instancePath === '' ? '(root)' : e.instancePath;
    const extra = e.keyword === 'additionalProperties' ? ` '${String(e.params.additionalProperty)}'` : '';
    return `${where} ${e.message ?? e.keyword}${extra}`;
  });
  const more = errors.length > MAX_ERRORS ? ` (+${errors.length - MAX_ERRORS} more)` : '';
  return `${parts.join('; ')}${more}`;
}
