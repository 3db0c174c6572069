import { formatAjvErrors } from '../util/schema-cache.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { ajv2020Library } from '../util/lazy.js';
import { metaOptions } from '../util/meta-schema.js';
import {
  compileAlone,
  SCHEMA_OPTIONS,
  type SchemaProblem,
  schemaCache,
  schemaProblemOf,
} from '../util/schema-cache.js';
import type { CheckResult } from './registry.js';
import type { CheckContext } from './registry.js';
import { extractJson } from './extract-json.js';

/** json_schema expectations in ajv's 2020-12 dialect, each schema compiled once (schemaCache). */
const validatorFor = schemaCache('draft2020', (options) => new (ajv2020Library().Ajv2020)(options));

/** `json_schema`: the first JSON value in the content (see extractJson) must validate (JSON Schema 2020-12). */
export function checkJsonSchema(
  schema: Record<string, unknown>,
  { completion: c }: CheckContext,
): CheckResult {
  const validate = validatorFor(schema);
  if (!(validate instanceof Function)) {
    return {
      type: 'json_schema',
      pass: false,
      message: `invalid JSON schema in the suite: ${validate.error}`,
    };
  }
  const extracted = extractJson(c.content);
  if ('error' in extracted) return { type: 'json_schema', pass: false, message: extracted.error };
  if (validate(extracted.value)) {
    return { type: 'json_schema', pass: true, message: `JSON (${extracted.source}) matches the schema` };
  }
  return {
    type: 'json_schema',
    pass: false,
    message: `JSON (${extracted.source}) does not match the schema: ${formatAjvErrors(validate.errors ?? [])}`,
  };
}

// Checks compile json_schema expectations with ajv's 2020-12 dialect; validating a suite compiles
// the same way, so a schema that validates now also compiles at run time.
let userSchemaAjv: Ajv2020 | undefined;

// Compiling is milliseconds per schema; suites repeat the same schema across cases.
const verdicts = new Map<string, SchemaProblem | null>();
const MAX_REMEMBERED = 256;

/** Why a `json_schema` value cannot be used (a pattern that cannot run, not compiling), or null. */
export function schemaProblem(schema: Record<string, unknown>): SchemaProblem | null {
  const key = JSON.stringify(schema);
  const known = verdicts.get(key);
  if (known !== undefined) return known;
  const problem = schemaProblemOf(
    schema,
    'draft2020',
    () => {
      userSchemaAjv ??= new (ajv2020Library().Ajv2020)({
        allErrors: true,
        logger: false,
        code: SCHEMA_OPTIONS.code,
        ...metaOptions('draft2020'),
      });
      try {
        compileAlone(userSchemaAjv, schema, 'draft2020');
        return null;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
    key,
  );
  if (verdicts.size >= MAX_REMEMBERED) verdicts.clear();
  verdicts.set(key, problem);
  return problem;
}
