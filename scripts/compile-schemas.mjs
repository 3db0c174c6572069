// Build step: writes the generated parts of the shipped schemas from the registries
// (scripts/schemas.mjs), then compiles the suite and config schemas into standalone
// validator modules (dist/validators/*.cjs, read through src/util/validators.ts), so a run
// does not spend ~200 ms compiling them at start-up. In this order, one build is enough: a check type added to the registry
// is in schemas/ and in the compiled validator `driftcheck validate` uses.
// src/yaml/schemas.ts uses these when present and compiles at run time otherwise.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { writeSchemas } from './schemas.mjs';

for (const name of await writeSchemas())
  console.log(`schemas/${name}.schema.json: regenerated from the registries`);

const require = createRequire(import.meta.url);
const { Ajv } = require('ajv');
const { Ajv2020 } = require('ajv/dist/2020');
const standaloneCode = require('ajv/dist/standalone').default;

const validators = new URL('../dist/validators/', import.meta.url);
// Emptied first: a validator an earlier build wrote and this one does not is never read.
rmSync(validators, { recursive: true, force: true });
mkdirSync(validators, { recursive: true });
const read = (name) =>
  JSON.parse(readFileSync(new URL(`../schemas/${name}.schema.json`, import.meta.url), 'utf8'));
// The same options as the run-time compile in src/yaml/schemas.ts (inlineRefs off: each
// definition one function, called where it is referred to).
const shipped = () =>
  new Ajv({
    allErrors: true,
    verbose: true,
    strict: true,
    strictRequired: false,
    inlineRefs: false,
    code: { source: true },
  });
{
  const ajv = shipped();
  writeFileSync(new URL('config.cjs', validators), standaloneCode(ajv, ajv.compile(read('config'))));
}
// The suite and its parts in one module, each part a function the suite's calls: `case`, one
// case of a suite, for the cases a table generates; `tools`, a tools file a suite names (as
// schemaOf in src/yaml/schemas.ts). Three modules, each inlining what it refers to, were 700 KB
// for `driftcheck validate` to load; this one is 330 KB.
{
  const ajv = shipped();
  ajv.addSchema(read('suite'), 'suite');
  const parts = { suite: 'suite', case: 'suite#/definitions/case', tools: 'suite#/definitions/tools_file' };
  writeFileSync(new URL('suite.cjs', validators), standaloneCode(ajv, parts));
}

// The meta-schemas of the drafts users write schemas in (src/util/meta-schema.ts): Ajv compiled
// one at run time on the first user schema of every process (~50 ms of `driftcheck validate`).
// The options of the users' schemas' own Ajvs (SCHEMA_OPTIONS in src/util/schema-cache.ts).
for (const [draft, Make, id] of [
  ['draft7', Ajv, 'http://json-schema.org/draft-07/schema'],
  ['draft2020', Ajv2020, 'https://json-schema.org/draft/2020-12/schema'],
]) {
  const ajv = new Make({ allErrors: true, strict: false, validateFormats: false, code: { source: true } });
  writeFileSync(new URL(`meta-${draft}.cjs`, validators), standaloneCode(ajv, ajv.getSchema(id)));
}

// The shapes of the files driftcheck reads back (src/stored/schemas.ts): the report schema
// read leniently, and the journal's, run.json's and a baseline's shapes, all in one module.
// The same options as the run-time compile in src/stored/shape.ts.
const stored = await import('../dist/stored/schemas.js');
const report = JSON.parse(readFileSync(new URL('../schemas/report.schema.json', import.meta.url), 'utf8'));
// A module a shape (src/stored/shape.ts), each from its own Ajv: it holds what that shape refers to only.
for (const [shape, ref] of Object.entries(stored.STORED_SHAPES)) {
  const ajv = new Ajv2020({
    allErrors: false,
    verbose: true,
    strict: true,
    validateFormats: false,
    validateSchema: false,
    code: { source: true },
  });
  ajv.addSchema(stored.readingSchema(report));
  for (const schema of stored.OWN_SCHEMAS) ajv.addSchema(schema);
  writeFileSync(new URL(`stored-${shape}.cjs`, validators), standaloneCode(ajv, ajv.getSchema(ref)));
}
