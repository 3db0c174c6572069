import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { schemaPath } from '../../src/yaml/schemas.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const loadSchema = (name: 'suite' | 'config') =>
  JSON.parse(readFileSync(schemaPath(name), 'utf8')) as Record<string, unknown>;
const validFixtures = (kind: 'suites' | 'config') =>
  readdirSync(here(`../fixtures/${kind}/valid`)).map(
    (f) => [f, here(`../fixtures/${kind}/valid/${f}`)] as const,
  );

/** Every schema object that describes a property, reached through properties/additionalProperties/items/definitions. */
function propertySchemas(schema: Record<string, unknown>, path = '#'): [string, Record<string, unknown>][] {
  const out: [string, Record<string, unknown>][] = [];
  const visit = (node: unknown, at: string, isProperty: boolean) => {
    if (typeof node !== 'object' || node === null) return;
    const n = node as Record<string, unknown>;
    if (isProperty && !('$ref' in n)) out.push([at, n]);
    for (const [key, child] of Object.entries((n.properties ?? {}) as Record<string, unknown>)) {
      visit(child, `${at}/properties/${key}`, true);
    }
    for (const [key, child] of Object.entries((n.definitions ?? {}) as Record<string, unknown>)) {
      visit(child, `${at}/definitions/${key}`, true);
    }
    if (typeof n.additionalProperties === 'object')
      visit(n.additionalProperties, `${at}/additionalProperties`, true);
    if (typeof n.items === 'object') visit(n.items, `${at}/items`, false);
  };
  visit(schema, path, true);
  return out;
}

describe.each(['suite', 'config'] as const)('schemas/%s.schema.json', (name) => {
  const schema = loadSchema(name);

  it('is a valid draft-07 JSON Schema that a strict ajv compiles', () => {
    const ajv = new Ajv({ strict: true, strictRequired: false });
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  it('documents every property with a title and a description (editor completion)', () => {
    const undocumented = propertySchemas(schema)
      .filter(([, s]) => typeof s.title !== 'string' || typeof s.description !== 'string')
      .map(([at]) => at);
    expect(undocumented).toEqual([]);
  });

  it('tells people how to attach it with yaml-language-server', () => {
    expect(schema.description).toContain('# yaml-language-server: $schema=');
  });
});

describe('valid fixtures validate against the shipped schemas', () => {
  it.each([
    ...validFixtures('suites').map(([f, p]) => ['suite', f, p] as const),
    ...validFixtures('config').map(([f, p]) => ['config', f, p] as const),
  ])('%s: %s', (name, _file, path) => {
    const validate = new Ajv({ strict: true, strictRequired: false, allErrors: true }).compile(
      loadSchema(name),
    );
    expect(validate(parse(readFileSync(path, 'utf8'))), JSON.stringify(validate.errors)).toBe(true);
  });
});
