import { createRequire } from 'node:module';

// Libraries most runs never touch, loaded (synchronously) on first use instead of at
// start-up: `yaml` reads only files the fast YAML path declines, and ajv compiles only
// `json_schema` expectations. Together they were about 100 ms of every run's start.
const require = createRequire(import.meta.url);

let yamlLib: typeof import('yaml') | undefined;
let ajvLib: typeof import('ajv') | undefined;
let ajv2020Lib: typeof import('ajv/dist/2020.js') | undefined;

export const yamlLibrary = (): typeof import('yaml') =>
  (yamlLib ??= require('yaml') as typeof import('yaml'));
export const ajvLibrary = (): typeof import('ajv') => (ajvLib ??= require('ajv') as typeof import('ajv'));
export const ajv2020Library = (): typeof import('ajv/dist/2020.js') =>
  (ajv2020Lib ??= require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js'));
