import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';

const require = createRequire(import.meta.url);

/**
 * The validator `npm run build` compiled from a schema (scripts/compile-schemas.mjs):
 * `dist/validators/NAME.cjs`, one folder for all of them, one level up from this module
 * wherever it is: dist/util/ as tsc wrote it, or a chunk of the bundled CLI in dist/bin/
 * (scripts/bundle.mjs). Null when there is none: running from src, the callers compile the
 * schema instead.
 */
export function compiledValidator(name: string): ValidateFunction | null {
  try {
    const module = require(`../validators/${name}.cjs`) as ValidateFunction & { default?: ValidateFunction };
    return module.default ?? module;
  } catch {
    return null;
  }
}
