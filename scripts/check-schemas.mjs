// Writes the derived parts of schemas/suite.schema.json: the expectation checks from the
// check registry (src/checks/registry.ts, built to dist/), so the shipped schema lists
// exactly the checks driftcheck has; the table formats from src/suite/sources/index.ts;
// and the keys of a table's case template from the keys of a case, so a key added to
// cases is accepted in templates too.
// `node scripts/check-schemas.mjs --check` only compares (tests run it).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const file = fileURLToPath(new URL('../schemas/suite.schema.json', import.meta.url));
const { CHECKS } = await import('../dist/checks/registry.js');
const { TABLE_FORMATS } = await import('../dist/suite/sources/index.js');
const schema = JSON.parse(readFileSync(file, 'utf8'));
const { definitions } = schema;

const TEMPLATE_VALUE =
  "As in a case; any text may hold {{column}} placeholders, and a text that is one placeholder alone takes the row's value with its type (JSON Lines).";
const titleOf = (node) =>
  node.$ref ? definitions[node.$ref.replace('#/definitions/', '')].title : node.title;
const templateProperties = Object.fromEntries(
  Object.entries(definitions.case.properties).map(([key, node]) => [
    key,
    key === 'id'
      ? definitions.case_template.properties.id
      : { title: titleOf(node), description: TEMPLATE_VALUE },
  ]),
);

const derived = [
  {
    what: 'the checks of src/checks/registry.ts',
    get: () => definitions.expectation.properties,
    set: (v) => (definitions.expectation.properties = v),
    wanted: Object.fromEntries(Object.entries(CHECKS).map(([type, def]) => [type, def.schema])),
  },
  {
    what: 'the table formats of src/suite/sources/index.ts',
    get: () => definitions.table.properties.format.enum,
    set: (v) => (definitions.table.properties.format.enum = v),
    wanted: Object.keys(TABLE_FORMATS),
  },
  {
    what: "a case's keys in the case template",
    get: () => definitions.case_template.properties,
    set: (v) => (definitions.case_template.properties = v),
    wanted: templateProperties,
  },
];
const stale = derived.filter((d) => JSON.stringify(d.get()) !== JSON.stringify(d.wanted));
if (process.argv.includes('--check')) {
  for (const d of stale)
    console.error(`schemas/suite.schema.json does not list ${d.what}: run npm run schemas`);
  if (stale.length > 0) process.exit(1);
} else if (stale.length > 0) {
  for (const d of stale) d.set(d.wanted);
  writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
  for (const d of stale) console.log(`schemas/suite.schema.json: ${d.what} updated`);
}
