// Writes the generated parts of the shipped schemas from the registries, built to dist/:
// schemas/suite.schema.json's expectations from src/checks/registry.ts, and
// schemas/report.schema.json's check and drift kinds and recorded fields (src/report/schema.ts).
// `npm run build` runs it before compiling the validators, so one build is enough.
import { readFileSync, writeFileSync } from 'node:fs';
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

/** The shipped schemas as the registries want them, with whether each file already says so. */
export async function generatedSchemas() {
  const { CHECKS } = await import('../dist/checks/registry.js');
  const { reportSchema } = await import('../dist/report/schema.js');
  const suite = JSON.parse(readFileSync(path('suite'), 'utf8'));
  suite.definitions.expectation.properties = Object.fromEntries(
    Object.entries(CHECKS).map(([type, def]) => [type, def.schema]),
  );
  const report = reportSchema(JSON.parse(readFileSync(path('report'), 'utf8')));
  // Compared as data: the file's formatting is Prettier's, not JSON.stringify's.
  return [
    { name: 'suite', value: suite },
    { name: 'report', value: report },
  ].map((s) => ({
    ...s,
    file: path(s.name),
    same: text(JSON.parse(readFileSync(path(s.name), 'utf8'))) === text(s.value),
  }));
}

/** Writes the schemas that differ; returns their names. */
export async function writeSchemas() {
  const changed = (await generatedSchemas()).filter((s) => !s.same);
  for (const s of changed) writeFileSync(s.file, await formatted(s.value, s.file));
  return changed.map((s) => s.name);
}
