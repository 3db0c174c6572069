// Writes the expectation part of schemas/suite.schema.json from the check registry
// (src/checks/registry.ts, built to dist/): the shipped schema lists exactly the checks
// driftcheck has. `node scripts/check-schemas.mjs --check` only compares (tests run it).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const file = fileURLToPath(new URL('../schemas/suite.schema.json', import.meta.url));
const { CHECKS } = await import('../dist/checks/registry.js');
const schema = JSON.parse(readFileSync(file, 'utf8'));
const wanted = Object.fromEntries(Object.entries(CHECKS).map(([type, def]) => [type, def.schema]));
const current = schema.definitions.expectation.properties;
const same = JSON.stringify(current) === JSON.stringify(wanted);
if (process.argv.includes('--check')) {
  if (!same) {
    console.error(
      'schemas/suite.schema.json does not list the checks of src/checks/registry.ts: run npm run schemas',
    );
    process.exit(1);
  }
} else if (!same) {
  schema.definitions.expectation.properties = wanted;
  writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
  console.log('schemas/suite.schema.json: expectation checks updated from the registry');
}
