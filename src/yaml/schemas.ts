import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Ajv, ValidateFunction } from 'ajv';
import { ajvLibrary } from '../util/lazy.js';
import { compiledValidator } from '../util/validators.js';

/** The JSON Schemas that ship in the package's `schemas/` folder. */
export type ShippedSchema = 'suite' | 'config';

/**
 * What a validator checks: a shipped file, `case` — one case of a suite (cases generated
 * from tables) — or `tools` — a tools file a suite names (`definitions/tools_file`).
 */
export type ValidatorName = ShippedSchema | 'case' | 'tools';

/** The suite schema's definition each part-of-a-suite validator starts from. */
const SUITE_PARTS: Partial<Record<ValidatorName, string>> = { case: 'case', tools: 'tools_file' };

const compiled = new Map<ValidatorName, ValidateFunction>();
let ajv: Ajv | undefined;

/** Absolute path of a shipped schema (same place from `src/yaml/` and `dist/yaml/`). */
export function schemaPath(name: ShippedSchema): string {
  return fileURLToPath(new URL(`../../schemas/${name}.schema.json`, import.meta.url));
}

/**
 * Returns the validator for a shipped schema, compiling it on first use only: a run
 * validates many suites and compiling is the expensive part.
 */
export function shippedValidator(name: ValidatorName): ValidateFunction {
  const cached = compiled.get(name);
  if (cached) return cached;
  // Compiled by `npm run build` from the same schema: compiling here cost ~200 ms a run.
  // The suite's validator and its parts' are one module; config's is its own.
  const prebuilt = name === 'config' ? compiledValidator('config') : compiledValidator('suite', name);
  if (prebuilt) {
    compiled.set(name, prebuilt);
    return prebuilt;
  }
  // validateSchema: false — the shipped schemas are checked against the meta-schema by the
  // tests; re-checking them on every start-up was half of the compile time.
  ajv ??= new (ajvLibrary().Ajv)({
    allErrors: true,
    verbose: true,
    strict: true,
    strictRequired: false,
    validateSchema: false,
  });
  const validate = ajv.compile(schemaOf(name));
  compiled.set(name, validate);
  return validate;
}

/**
 * The schema a validator compiles; `case` is the suite schema's `definitions/case` with the
 * definitions it refers to (scripts/compile-schemas.mjs builds the same).
 */
function schemaOf(name: ValidatorName): object {
  const part = SUITE_PARTS[name];
  if (part === undefined)
    return JSON.parse(readFileSync(schemaPath(name as ShippedSchema), 'utf8')) as object;
  const suite = JSON.parse(readFileSync(schemaPath('suite'), 'utf8')) as { definitions: object };
  return { definitions: suite.definitions, $ref: `#/definitions/${part}` };
}
