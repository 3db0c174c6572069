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
// report.schema.json: a case line may leave out every field src/report/case-line.ts restores,
// so what the schema requires of a case (and of its stats) is what no rule derives.
const reportFile = fileURLToPath(new URL('../schemas/report.schema.json', import.meta.url));
const { CASE_RULES } = await import('../dist/report/case-line.js');
const report = JSON.parse(readFileSync(reportFile, 'utf8'));
const caseDef = report.$defs.case;
const kept = (rules) => rules.filter((r) => !r.derive).map((r) => r.key);
const statsRules = CASE_RULES.find((r) => r.key === 'stats').fields;
const latencyRules = statsRules.find((r) => r.key === 'latency_ms').fields;
const latencyObject = () =>
  caseDef.properties.stats.properties.latency_ms.oneOf.find((o) => o.type === 'object');
const reportDerived = [
  {
    what: 'the case fields no rule of src/report/case-line.ts restores',
    get: () => caseDef.required,
    set: (v) => (caseDef.required = v),
    wanted: kept(CASE_RULES.filter((r) => r.key !== 'sampling' && r.key !== 'history')),
  },
  {
    what: 'the stats fields no rule restores',
    get: () => caseDef.properties.stats.required,
    set: (v) => (caseDef.properties.stats.required = v),
    wanted: kept(statsRules),
  },
  {
    what: 'the latency fields no rule restores',
    get: () => latencyObject().required,
    set: (v) => (latencyObject().required = v),
    wanted: kept(latencyRules),
  },
];

let failed = false;
for (const [path, doc, list] of [
  ['schemas/suite.schema.json', schema, derived],
  ['schemas/report.schema.json', report, reportDerived],
]) {
  const stale = list.filter((d) => JSON.stringify(d.get()) !== JSON.stringify(d.wanted));
  if (process.argv.includes('--check')) {
    for (const d of stale) console.error(`${path} does not list ${d.what}: run npm run schemas`);
    failed ||= stale.length > 0;
  } else if (stale.length > 0) {
    for (const d of stale) d.set(d.wanted);
    const target = path === 'schemas/suite.schema.json' ? file : reportFile;
    writeFileSync(target, `${JSON.stringify(doc, null, 2)}\n`);
    for (const d of stale) console.log(`${path}: ${d.what} updated`);
  }
}
if (failed) process.exit(1);
