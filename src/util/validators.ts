import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';

const require = createRequire(import.meta.url);

/**
 * Each validator looked for, found or not: a module is required once anyway, but a missing
 * one (the sources, run by a test runner) was looked for again on every call.
 */
const looked = new Map<string, ValidateFunction | null>();

/**
 * The validator `npm run build` compiled from a schema (scripts/compile-schemas.mjs):
 * `dist/validators/NAME.cjs`, one folder for all of them, one level up from this module
 * wherever it is: dist/util/ as tsc wrote it, or a chunk of the bundled CLI in dist/bin/
 * (scripts/bundle.mjs); `part`, one of several a module holds (the suite's, its case's and its
 * tools file's share one). Null when there is none: running from src, the callers compile the
 * schema instead. Looked for once a process.
 */
export function compiledValidator(name: string, part?: string): ValidateFunction | null {
  const key = part === undefined ? name : `${name}#${part}`;
  let found = looked.get(key);
  if (found === undefined) looked.set(key, (found = load(name, part)));
  return found;
}

function load(name: string, part: string | undefined): ValidateFunction | null {
  try {
    const module = require(`../validators/${name}.cjs`) as ValidateFunction &
      Record<string, ValidateFunction | undefined>;
    return (part === undefined ? (module.default ?? module) : module[part]) ?? null;
  } catch {
    return null;
  }
}
