// Build step: writes the generated parts of the shipped schemas from the registries
// (scripts/schemas.mjs), then compiles the suite and config schemas into standalone
// validator modules (dist/yaml/validators/*.cjs), so a run does not spend ~200 ms compiling
// them at start-up. In this order, one build is enough: a check type added to the registry
// is in schemas/ and in the compiled validator `driftcheck validate` uses.
// src/yaml/schemas.ts uses these when present and compiles at run time otherwise.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { writeSchemas } from './schemas.mjs';

for (const name of await writeSchemas())
  console.log(`schemas/${name}.schema.json: regenerated from the registries`);

const require = createRequire(import.meta.url);
const { Ajv } = require('ajv');
const standaloneCode = require('ajv/dist/standalone').default;

mkdirSync(new URL('../dist/yaml/validators/', import.meta.url), { recursive: true });
for (const name of ['suite', 'config']) {
  const schema = JSON.parse(readFileSync(new URL(`../schemas/${name}.schema.json`, import.meta.url), 'utf8'));
  // The same options as the run-time compile in src/yaml/schemas.ts.
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    strict: true,
    strictRequired: false,
    code: { source: true },
  });
  const validate = ajv.compile(schema);
  writeFileSync(
    new URL(`../dist/yaml/validators/${name}.cjs`, import.meta.url),
    standaloneCode(ajv, validate),
  );
}
