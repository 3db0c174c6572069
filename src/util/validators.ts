import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';

const require = createRequire(import.meta.url);

/**
 * The validator `npm run build` compiled from a schema (scripts/compile-schemas.mjs):
 * `dist/validators/NAME.cjs`, one folder for all of them, one level up from this module
 * wherever it is: dist/util/ as tsc wrote it, or a chunk of the bundled CLI in dist/bin/
 * (scripts/bundle.mjs); `part`, one of several a module holds (the suite's, its case's and its
 * tools file's share one). Null when there is none: running from src, the callers compile the
 * schema instead.
 */
export function compiledValidator(name: string, part?: string): ValidateFunction | null {
  try {
    const module = require(`../validators/${name}.cjs`) as ValidateFunction &
      Record<string, ValidateFunction | undefined>;
    return (part === undefined ? (module.default ?? module) : module[part]) ?? null;
  } catch {
    return null;
  }
}
