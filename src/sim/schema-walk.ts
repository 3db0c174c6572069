/**
 * Reading a JSON Schema (draft 7, the router's validator) as the simulated model does when
 * it writes arguments or a structured answer: one flat node per place, with local `$ref`s
 * followed, `allOf` merged and the first `anyOf` / `oneOf` branch taken. Keywords outside
 * this subset (`not`, `if`/`then`/`else`, `dependencies`, `patternProperties`, `contains`,
 * `propertyNames`) are not read, so a schema relying on them may get a value it refuses.
 */

export type SchemaNode = Record<string, unknown>;

/** How deep `$ref`s and nesting are followed; past it a value is the empty one of its type. */
export const MAX_SCHEMA_DEPTH = 8;

/** A schema node flattened against its document `root`; `{}` (anything goes) for what cannot be read. */
export function flatten(node: unknown, root: unknown, depth = 0): SchemaNode {
  if (!isObject(node) || depth > MAX_SCHEMA_DEPTH) return {};
  // Draft 7: beside `$ref`, every other keyword is ignored.
  if (typeof node.$ref === 'string') return flatten(resolvePointer(root, node.$ref), root, depth + 1);
  const { allOf, anyOf, oneOf, ...own } = node;
  let out: SchemaNode = own;
  const branches = [
    ...(Array.isArray(allOf) ? allOf : []),
    ...(Array.isArray(anyOf) ? anyOf.slice(0, 1) : []),
    ...(Array.isArray(oneOf) ? oneOf.slice(0, 1) : []),
  ];
  for (const branch of branches) out = merge(out, flatten(branch, root, depth + 1));
  return out;
}

/** The type a value of this node is written as: `type` (its first non-null member), else what its keywords imply. */
export function typeOf(s: SchemaNode): string {
  const declared = Array.isArray(s.type) ? (s.type as unknown[]) : s.type === undefined ? [] : [s.type];
  const named = declared.find((t) => t !== 'null') ?? declared[0];
  if (typeof named === 'string') return named;
  if ('properties' in s || 'required' in s || 'additionalProperties' in s || 'minProperties' in s)
    return 'object';
  if ('items' in s || 'minItems' in s || 'maxItems' in s) return 'array';
  if ('minimum' in s || 'maximum' in s || 'multipleOf' in s || 'exclusiveMinimum' in s) return 'number';
  return 'string';
}

export function isObject(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `#`, `#/definitions/x`, `#/$defs/x` (with `~0`, `~1` and %-escapes); anything else is not followed. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return {};
  let node = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return {};
    }
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = node[key];
    else return {};
  }
  return node;
}

/** Two nodes that must both hold: properties and requirements joined, bounds tightened. */
function merge(a: SchemaNode, b: SchemaNode): SchemaNode {
  const out: SchemaNode = { ...b, ...a };
  if (isObject(a.properties) || isObject(b.properties)) {
    const props: SchemaNode = { ...(isObject(b.properties) ? b.properties : {}) };
    for (const [key, p] of Object.entries(isObject(a.properties) ? a.properties : {}))
      props[key] = key in props ? { allOf: [p, props[key]] } : p;
    out.properties = props;
  }
  const required = [a.required, b.required].flatMap((r) => (Array.isArray(r) ? r : []));
  if (required.length > 0) out.required = [...new Set(required)];
  for (const key of ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'])
    if (typeof a[key] === 'number' && typeof b[key] === 'number') out[key] = Math.max(a[key], b[key]);
  for (const key of ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'])
    if (typeof a[key] === 'number' && typeof b[key] === 'number') out[key] = Math.min(a[key], b[key]);
  if (Array.isArray(a.enum) && Array.isArray(b.enum)) {
    const inB = new Set(b.enum.map((v) => JSON.stringify(v)));
    out.enum = a.enum.filter((v) => inB.has(JSON.stringify(v)));
  }
  if (a.additionalProperties === false || b.additionalProperties === false) out.additionalProperties = false;
  if (a.type !== undefined && b.type !== undefined) {
    const bTypes = Array.isArray(b.type) ? b.type : [b.type];
    const shared = (Array.isArray(a.type) ? a.type : [a.type]).filter((t) => bTypes.includes(t));
    if (shared.length > 0) out.type = shared;
  }
  return out;
}
