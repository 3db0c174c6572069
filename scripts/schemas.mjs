// Writes the generated parts of the shipped schemas from the registries, built to dist/:
// schemas/suite.schema.json's expectations from src/checks/registry.ts, its table formats
// from src/suite/sources/index.ts and a table's case template from the keys of a case (a key
// added to cases is accepted in templates too); and schemas/report.schema.json's check and
// drift kinds, recorded fields and what a case line must hold (src/stored/report/schema.ts);
// schemas/config.schema.json's service kinds from src/adapters/index.ts (src/config/schema.ts);
// and schemas/compare.schema.json whole (src/compare/schema.ts).
// `npm run build` runs it before compiling the validators, so one build is enough.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const path = (name) => fileURLToPath(new URL(`../schemas/${name}.schema.json`, import.meta.url));
const text = (value) => `${JSON.stringify(value, null, 2)}\n`;

/** Formatted as the repository's other JSON (Prettier, a dev dependency: where schemas change, it is there). */
async function formatted(value, file) {
  try {
    const prettier = await import('prettier');
    return await prettier.format(text(value), { ...(await prettier.resolveConfig(file)), filepath: file });
  } catch {
    return text(value);
  }
}

const TEMPLATE_VALUE =
  "As in a case; any text may hold {{column}} placeholders, and a text that is one placeholder alone takes the row's value with its type (JSON Lines).";

/** The shipped schemas as the registries want them, with whether each file already says so. */
export async function generatedSchemas() {
  const { CHECKS } = await import('../dist/checks/registry.js');
  const { TABLE_FORMATS } = await import('../dist/suite/sources/index.js');
  const { reportSchema } = await import('../dist/stored/report/schema.js');
  const { compareSchema } = await import('../dist/compare/schema.js');
  const { configSchema } = await import('../dist/config/schema.js');
  const suite = JSON.parse(readFileSync(path('suite'), 'utf8'));
  const { definitions } = suite;
  definitions.expectation.properties = Object.fromEntries(
    Object.entries(CHECKS).map(([type, def]) => [type, def.schema]),
  );
  definitions.table.properties.format.enum = Object.keys(TABLE_FORMATS);
  const titleOf = (node) =>
    node.$ref ? definitions[node.$ref.replace('#/definitions/', '')].title : node.title;
  definitions.case_template.properties = Object.fromEntries(
    Object.entries(definitions.case.properties).map(([key, node]) => [
      key,
      key === 'id'
        ? definitions.case_template.properties.id
        : { title: titleOf(node), description: TEMPLATE_VALUE },
    ]),
  );
  const report = reportSchema(JSON.parse(readFileSync(path('report'), 'utf8')));
  // Compared as data: the file's formatting is Prettier's, not JSON.stringify's.
  return [
    { name: 'suite', value: suite },
    { name: 'report', value: report },
    { name: 'config', value: configSchema(JSON.parse(readFileSync(path('config'), 'utf8'))) },
    // compare.json's schema is all generated, from src/compare/schema.ts.
    { name: 'compare', value: compareSchema() },
  ].map((s) => ({
    ...s,
    file: path(s.name),
    same: existsSync(path(s.name)) && text(JSON.parse(readFileSync(path(s.name), 'utf8'))) === text(s.value),
  }));
}

/** Writes the schemas that differ; returns their names. */
export async function writeSchemas() {
  const changed = (await generatedSchemas()).filter((s) => !s.same);
  for (const s of changed) writeFileSync(s.file, await formatted(s.value, s.file));
  return changed.map((s) => s.name);
}
