import { flatten, isObject, typeOf } from './schema-walk.js';

/**
 * A value made invalid against its schema, the way providers get arguments wrong: the first
 * required property dropped; else the first declared property given a value of another type;
 * else an undeclared property added where `additionalProperties` is false; else a value of
 * another type altogether. Undefined when the schema constrains nothing (no way to miss it).
 */
export function mismatched(value: unknown, schema: unknown): unknown {
  const s = flatten(schema, schema);
  const type = typeOf(s);
  if (isObject(value) && type === 'object') {
    const required = Array.isArray(s.required)
      ? s.required.find((k) => typeof k === 'string' && k in value)
      : undefined;
    if (typeof required === 'string') {
      const { [required]: _dropped, ...rest } = value;
      return rest;
    }
    const props = isObject(s.properties) ? s.properties : {};
    for (const key of Object.keys(props)) {
      const p = flatten(props[key], schema, 1);
      if (!(key in value) || !constrained(p)) continue;
      const wrong = otherType(typeOf(p), p);
      if (wrong !== undefined) return { ...value, [key]: wrong };
    }
    if (s.additionalProperties === false) return { ...value, unexpected_field: true };
  }
  // Without `type`, `properties` and `items` hold only for objects and arrays: another type passes.
  return constrained(s) ? otherType(type, s) : undefined;
}

/** Whether a node refuses some value outright (by type, enum or const). */
function constrained(s: Record<string, unknown>): boolean {
  return 'type' in s || 'enum' in s || 'const' in s;
}

/** A value no schema of this type accepts (a string for a number, a number for a string, …). */
function otherType(type: string, s: Record<string, unknown>): unknown {
  // A property that may also be null or a string has no single "other" type: pick one it does not allow.
  const allowed = new Set(Array.isArray(s.type) ? s.type : [type]);
  if (!allowed.has('number') && !allowed.has('integer')) return 12345;
  if (!allowed.has('string')) return 'not a number';
  if (!allowed.has('array')) return [];
  return undefined;
}
