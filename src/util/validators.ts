import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A validator module `npm run build` compiled from a schema (scripts/compile-schemas.mjs):
 * `dist/validators/NAME.cjs`, one folder for all of them, one level up from this module
 * wherever it is: dist/util/ as tsc wrote it, or a chunk of the bundled CLI in dist/bin/
 * (scripts/bundle.mjs). Throws when there is none: running from src, the callers compile
 * the schema instead.
 */
export function requireValidator(name: string): unknown {
  return require(`../validators/${name}.cjs`);
}
