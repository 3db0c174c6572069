// Build step (after tsc and compile-schemas): bundles the CLI — dist/cli/main.js and every
// module it imports — into dist/bin/, the files bin/driftcheck.js runs. Each command stays
// its own chunk, loaded when the command runs (main.ts imports commands dynamically), so a
// command loads a handful of files instead of the 150–250 small modules tsc writes: `run`'s
// modules 140 → 90 ms to import, `driftcheck run --sim suites/demo` 0.86× the CPU and
// `report` of its run 0.83× (farm-bench, paired, 2026-11-28). The dependencies stay
// outside the bundle, loaded from node_modules as the unbundled code loads them (bundled
// too, `run`'s chunk took 111 ms to import, not 90). The library entry (dist/index.js) is
// not bundled. Resources are found relative to a module's own folder, one level under
// dist/ in both layouts: the schemas (../../schemas), package.json, and the compiled
// validators (src/util/validators.ts).
import { readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = new URL('..', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const dependencies = Object.keys(pkg.dependencies ?? {});
const out = fileURLToPath(new URL('dist/bin/', root));

rmSync(out, { recursive: true, force: true });
await build({
  input: fileURLToPath(new URL('dist/cli/main.js', root)),
  platform: 'node',
  // A dependency (or a file of one, `ajv/dist/2020.js`) and Node's own modules are imported, never copied.
  external: (id) =>
    id.startsWith('node:') ||
    builtinModules.includes(id) ||
    dependencies.some((name) => id === name || id.startsWith(`${name}/`)),
  logLevel: 'warn',
  output: { dir: out, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
});
