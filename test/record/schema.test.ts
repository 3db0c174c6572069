import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DRIFT_KINDS } from '../../src/record/drift-kinds.js';
import { CHECK_TYPES } from '../../src/checks/registry.js';
import { RECORDED } from '../../src/record/registry.js';
import { GENERATED, reportSchema } from '../../src/stored/report/schema.js';
import { OWN_SCHEMAS } from '../../src/stored/schemas.js';

const shipped = JSON.parse(
  readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8'),
);

describe('the report schema, generated from the registries', () => {
  it('is what schemas/report.schema.json holds (npm run build writes it)', () => {
    expect(reportSchema(shipped)).toEqual(shipped);
    expect(shipped.$defs.check.properties.type.enum).toEqual(CHECK_TYPES);
    expect(shipped.$defs.drift.properties.kind.enum).toEqual(DRIFT_KINDS);
    for (const name of Object.keys(RECORDED))
      expect(shipped.$defs.sample.properties[name], name).toBeDefined();
    // Recorded case fields are described; a case line may leave out what a rule restores.
    for (const name of ['providers', 'fingerprints', 'refusal'])
      expect(shipped.$defs.case.properties[name], name).toBeDefined();
    expect(shipped.$defs.case.required).toEqual(expect.arrayContaining(['id', 'service', 'status']));
    expect(shipped.$defs.case.required).not.toContain('providers');
  });

  it('drops a generated property whose field left the registry, and keeps hand-written ones', () => {
    const template = structuredClone(shipped);
    template.$defs.case.properties.gone = { type: 'string', $comment: GENERATED };
    template.$defs.case.required.push('gone');
    const schema = reportSchema(template) as typeof shipped;
    expect(schema.$defs.case.properties.gone).toBeUndefined();
    expect(schema.$defs.case.required).not.toContain('gone');
    expect(schema.$defs.case.properties.content).toEqual(shipped.$defs.case.properties.content);
  });

  it('types every recorded field a baseline stores in the stored baseline shape, from the field', () => {
    const baseline = OWN_SCHEMAS.find((o) =>
      (o as { $id?: string }).$id?.endsWith('/stored/baseline.json'),
    ) as {
      properties: { cases: { additionalProperties: { properties: Record<string, unknown> } } };
    };
    const stored = baseline.properties.cases.additionalProperties.properties;
    const stores = Object.entries(RECORDED).filter(([, f]) => 'baseline' in f);
    expect(stores.length).toBeGreaterThan(0);
    for (const [name] of stores) expect(stored[name], name).toBeDefined();
    // The case field it stores, its references reaching into the report schema.
    expect(stored.provider).toEqual({ type: ['string', 'null'] });
    expect(stored.tool_calls).toEqual({
      oneOf: [{ type: 'null' }, { $ref: 'https://driftcheck.dev/schemas/report.schema.json#/$defs/toolUse' }],
    });
  });
});
