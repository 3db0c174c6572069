import { DRIFT_KINDS } from '../../record/drift-kinds.js';
import { CHECK_TYPES } from '../../checks/registry.js';
import type { JsonSchema } from '../../record/field.js';
import { RECORDED_FIELDS } from '../../record/registry.js';
import { CASE_RULES, type Rule } from './case-line.js';

/** Marks the properties this module writes, so a field removed from the registry leaves the schema too. */
export const GENERATED = 'generated from src/record/ by npm run build';

type ObjectSchema = { properties: Record<string, JsonSchema>; required?: string[] };

const nullable = (value: JsonSchema): JsonSchema => ({ ...value, type: [value.type, 'null'] });

/**
 * Replaces the generated properties of an object schema with `wanted` (required when asked).
 * A property keeps its place when it stays, so regenerating an unchanged registry changes nothing.
 */
function place(schema: ObjectSchema, wanted: [string, JsonSchema][], required: boolean): void {
  const names = new Set(wanted.map(([name]) => name));
  for (const [k, v] of Object.entries(schema.properties))
    if (v.$comment === GENERATED && !names.has(k)) {
      delete schema.properties[k];
      schema.required = schema.required?.filter((r) => r !== k);
    }
  for (const [name, fragment] of wanted) {
    schema.properties[name] = { ...fragment, $comment: GENERATED };
    const listed = schema.required?.includes(name) ?? false;
    if (required && !listed) (schema.required ??= []).push(name);
    if (!required && listed) schema.required = schema.required!.filter((r) => r !== name);
  }
}

/**
 * schemas/report.schema.json from its hand-written part and the registries: the check and
 * drift kinds, and every recorded field on samples, case entries, their stats and suites.
 * `npm run build` writes it, so a check type or field added there is in the schema at once. Pure.
 */
export function reportSchema(template: unknown): JsonSchema {
  const schema = structuredClone(template) as {
    properties: { suites: { items: ObjectSchema } };
    $defs: Record<string, ObjectSchema>;
  };
  const defs = schema.$defs;
  defs.check!.properties.type = { enum: [...CHECK_TYPES] };
  defs.drift!.properties.kind = { enum: [...DRIFT_KINDS] };
  const at = (where: 'case' | 'stats') =>
    RECORDED_FIELDS.flatMap(([, f]) =>
      Object.entries(f[where] ?? {}).map(([name, fold]): [string, JsonSchema] => [
        name,
        fold.schema(f.schema),
      ]),
    );
  place(
    defs.sample!,
    RECORDED_FIELDS.map(([name, f]) => [name, nullable(f.schema)]),
    false,
  );
  place(defs.case!, at('case'), true);
  place(defs.case!.properties.stats as ObjectSchema, at('stats'), true);
  const suite = RECORDED_FIELDS.flatMap(([, f]) =>
    Object.entries(f.suite ?? {}).map(([name]): [string, JsonSchema] => [
      name,
      { type: 'array', items: f.schema },
    ]),
  );
  place(schema.properties.suites.items, suite, true);
  requireWhatNoRuleRestores(defs.case!);
  return schema as unknown as JsonSchema;
}

/**
 * A report.json case line leaves out every field a rule of case-line.ts restores, so what
 * the schema requires of a case (of its stats, of their latency) is what a rule keeps:
 * never a recorded field (older reports do not have a field added since).
 */
function requireWhatNoRuleRestores(caseDef: ObjectSchema): void {
  const apply = (schema: ObjectSchema, rules: readonly Rule[], skip: readonly string[] = []) => {
    schema.required = rules.filter((r) => !r.derive && !skip.includes(r.key)).map((r) => r.key);
  };
  // `within_max_steps`, `sampling`, `conversation` and `history` are written only when a case has them.
  apply(caseDef, CASE_RULES, ['within_max_steps', 'sampling', 'conversation', 'history']);
  const statsRules = CASE_RULES.find((r) => r.key === 'stats')!.fields!;
  const stats = caseDef.properties.stats as ObjectSchema;
  apply(stats, statsRules);
  const latency = (stats.properties.latency_ms as { oneOf: ObjectSchema[] }).oneOf.find(
    (o) => (o as { type?: unknown }).type === 'object',
  )!;
  apply(latency, statsRules.find((r) => r.key === 'latency_ms')!.fields!);
}
