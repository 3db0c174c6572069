import { createRequire } from 'node:module';
import type * as Ajv from 'ajv';
import type * as Ajv2020 from 'ajv/dist/2020.js';
import type * as CsvParse from 'csv-parse';
import type * as Re2 from 're2js';
import type StringWidth from 'string-width';
import type * as Yaml from 'yaml';

// Libraries most runs never touch, loaded (synchronously) on first use instead of at
// start-up: `yaml` reads only files the fast YAML path declines, ajv compiles only
// `json_schema` expectations, and csv-parse reads only CSV tables. Together they were
// about 110 ms of every run's start (csv-parse: 11 ms imported, 5 ms as its one CommonJS file).
// re2js matches the patterns of `regex` checks and JSON Schemas only.
const require = createRequire(import.meta.url);

let yamlLib: typeof Yaml | undefined;
let ajvLib: typeof Ajv | undefined;
let csvLib: typeof CsvParse | undefined;
let ajv2020Lib: typeof Ajv2020 | undefined;
let re2Lib: typeof Re2 | undefined;
let stringWidthLib: typeof StringWidth | undefined;

export const yamlLibrary = (): typeof Yaml => (yamlLib ??= require('yaml') as typeof Yaml);
export const csvParseLibrary = (): typeof CsvParse => (csvLib ??= require('csv-parse') as typeof CsvParse);
export const ajvLibrary = (): typeof Ajv => (ajvLib ??= require('ajv') as typeof Ajv);
export const ajv2020Library = (): typeof Ajv2020 =>
  (ajv2020Lib ??= require('ajv/dist/2020.js') as typeof Ajv2020);
/** RE2's port, for every user or service pattern (util/pattern.ts): only runs with patterns load it. */
export const re2Library = (): typeof Re2 => (re2Lib ??= require('re2js') as typeof Re2);
/**
 * string-width, for terminal text that is not plain ASCII (report/terminal.ts): importing it
 * is ~20 ms (its East Asian width tables and emoji pattern) of every command that prints a
 * table, most of whose text is ASCII. An ES module: required as Node ≥ 20.19 allows.
 */
export const stringWidthLibrary = (): typeof StringWidth =>
  (stringWidthLib ??= (require('string-width') as { default: typeof StringWidth }).default);

/**
 * A module (or anything async) loaded ahead of need: the first call starts it, later
 * calls return the same promise. A failure surfaces where the result is awaited, never
 * as an unhandled rejection of the early call.
 */
export function prefetch<T>(load: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => {
    if (!promise) {
      promise = load();
      promise.catch(() => {});
    }
    return promise;
  };
}
