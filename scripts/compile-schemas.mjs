// Build step: compiles the shipped JSON Schemas into standalone validator modules
// (dist/yaml/validators/*.cjs), so a run does not spend ~200 ms compiling them at start-up.
// src/yaml/schemas.ts uses these when present and compiles at run time otherwise.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Ajv } = require('ajv');
const standaloneCode = require('ajv/dist/standalone').default;

mkdirSync(new URL('../dist/yaml/validators/', import.meta.url), { recursive: true });
const read = (name) =>
  JSON.parse(readFileSync(new URL(`../schemas/${name}.schema.json`, import.meta.url), 'utf8'));
// `case`: one case of a suite, for the cases a table generates (as schemaOf in src/yaml/schemas.ts).
const schemas = {
  suite: read('suite'),
  config: read('config'),
  case: { definitions: read('suite').definitions, $ref: '#/definitions/case' },
};
for (const [name, schema] of Object.entries(schemas)) {
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
