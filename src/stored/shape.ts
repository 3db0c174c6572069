import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { deeperThan, MAX_JSON_DEPTH } from '../util/json-depth.js';
import { ajv2020Library } from '../util/lazy.js';
import { compiledValidator } from '../util/validators.js';
import { ajvDiagnostics } from '../yaml/ajv-diagnostics.js';
import { OWN_SCHEMAS, readingSchema, STORED_SHAPES, type StoredShape } from './schemas.js';
import { describePointer } from '../yaml/locate.js';

/** Said after every shape problem: what a user can do about a file driftcheck cannot use. */
export const NOT_WRITTEN_BY_DRIFTCHECK =
  'this file was not written by this driftcheck as it is (edited by hand, damaged, or from another version)';

const byShape: Partial<Record<StoredShape, ValidateFunction>> = {};
let compiled: Record<StoredShape, ValidateFunction> | undefined;

/**
 * The validator of a stored file's shape. Compiled from the shipped report schema (read
 * leniently: schemas.ts readingSchema) and the shapes of schemas.ts — by `npm run build`
 * when it ran (scripts/compile-schemas.mjs: a module a shape, so reading a journal does not
 * load what checks a report head), else here on first use, all at once.
 */
function validatorOf(shape: StoredShape): ValidateFunction {
  // A module a shape: all in one it was 928 KB to load (16 ms) for any stored file; a report
  // head's alone is 417 KB, a journal sample's 68 KB. Held by shape: asked once a record.
  return (byShape[shape] ??= compiledValidator(`stored-${shape}`) ?? (compiled ??= compileAll())[shape]);
}

function compileAll(): Record<StoredShape, ValidateFunction> {
  const file = fileURLToPath(new URL('../../schemas/report.schema.json', import.meta.url));
  const report = readingSchema(JSON.parse(readFileSync(file, 'utf8')) as object);
  // allErrors off: a reader needs the first problem, and 100,000 cases are checked one by one.
  const ajv = new (ajv2020Library().Ajv2020)({
    allErrors: false,
    verbose: true,
    strict: true,
    validateFormats: false,
    validateSchema: false,
  });
  ajv.addSchema(report);
  for (const schema of OWN_SCHEMAS) ajv.addSchema(schema);
  const out = {} as Record<StoredShape, ValidateFunction>;
  for (const [shape, ref] of Object.entries(STORED_SHAPES)) out[shape as StoredShape] = ajv.getSchema(ref)!;
  return out;
}

/**
 * What is wrong with a value read from a stored file, in words that name the JSON path of
 * the bad field (`cases[3].samples.sent must be a number, got text`), or null when it has
 * the shape. `at` is the value's own JSON Pointer in the file (`/cases/3`), so the path
 * shown is the file's, not the value's.
 */
export function shapeProblem(shape: StoredShape, value: unknown, at = ''): string | null {
  // The validator recurses once per level: a value nested past what driftcheck ever writes
  // would overflow its stack (exit 70) instead of being refused.
  if (deeperThan(value))
    return `${at ? `${describePointer(at)}: ` : ''}nested more than ${MAX_JSON_DEPTH} levels deep`;
  const validate = validatorOf(shape);
  if (validate(value)) return null;
  const errors = (validate.errors ?? []).map((e): ErrorObject => ({
    ...e,
    instancePath: `${at}${e.instancePath}`,
  }));
  // The translation written for suites and configs; a JSON file has no YAML positions to give.
  const where = { file: '', data: {}, locate: () => ({ line: 0, column: 0 }) };
  const [first] = ajvDiagnostics(errors, where, { rootName: at === '' ? 'the file' : 'the record' });
  // The message alone: the hints are written for YAML authors ("add 'x:'").
  return first?.message ?? 'has an unexpected shape';
}
