import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { REPO, WRITTEN } from './cli.js';

const schema = JSON.parse(readFileSync(join(REPO, 'schemas/report.schema.json'), 'utf8'));
// Formats are checked by the tests themselves (Date.parse); the schema's structure is what matters here.
const validate = new Ajv2020({ allErrors: true, strict: true, validateFormats: false }).compile(schema);

/**
 * The validation errors of a report against the shipped schema (empty when it conforms):
 * for a report readReport returned, the file as it was written.
 */
export function reportSchemaErrors(report: unknown): string[] {
  const written = typeof report === 'object' && report !== null ? (WRITTEN.get(report) ?? report) : report;
  return validate(written) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
