import { compilePattern } from '../util/pattern.js';
import { patternString } from './pattern-string.js';
import { type PromptValues, wordsOf } from './prompt-values.js';
import { flatten, isObject, MAX_SCHEMA_DEPTH, type SchemaNode, typeOf } from './schema-walk.js';
import { hash } from './words.js';

/**
 * A value valid against a JSON Schema (draft 7), written from the prompt's words: what the
 * simulated model puts in a tool call's arguments or a `json_schema` answer. The rules, in
 * order, for each place of the schema (same prompt and schema → same value):
 *
 * - `const` → it; `enum` → the option the prompt names (whole word, any case), else the first.
 * - string: a `format` (date, date-time, time, email, uri, uuid, hostname, ipv4, ipv6) → the
 *   prompt's value of that form, else a fixed example; otherwise the next quoted phrase of the
 *   prompt, else its next proper name ("weather in Paris" → "Paris"), else its content words
 *   that are not the tool's own ("search the docs for refund policy" → "refund policy"), else
 *   `default`, else the property's name. A free-text property (`query`, `q`, `text`, `topic`,
 *   `question`, `prompt`, `keywords`, `message`, `content`, `subject`, `terms`) takes the
 *   content words first. `pattern`: the first phrase or word of the prompt that
 *   matches it when the value does not, else a string made from the pattern (pattern-string.ts);
 *   `minLength` pads with `_`, `maxLength` cuts.
 * - number / integer: the next number of the prompt within `minimum`, `maximum`, the
 *   exclusive bounds and `multipleOf`, else the smallest allowed value (0 when unbounded).
 * - boolean: `default`, else true when the prompt uses the property's name ("with forecast").
 * - array: `max(minItems, 1)` items (at most `maxItems`), tuples positionally; under
 *   `uniqueItems` a repeated string gets a number ("tag 2"), a repeated boolean flips.
 * - object: every `required` property, and the optional ones the prompt names (by name, or by
 *   an option of their `enum`), then declared ones up to `minProperties`; nothing undeclared.
 */
export function schemaValue(schema: unknown, values: PromptValues): unknown {
  return write(schema, schema, values, 0, 'value');
}

function write(node: unknown, root: unknown, values: PromptValues, depth: number, name: string): unknown {
  const s = flatten(node, root, depth);
  if ('const' in s) return structuredClone(s.const);
  if (Array.isArray(s.enum) && s.enum.length > 0) return structuredClone(values.option(s.enum) ?? s.enum[0]);
  const type = typeOf(s);
  if (depth > MAX_SCHEMA_DEPTH) return EMPTY[type] ?? null;
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return typeof s.default === 'boolean' ? s.default : values.mentions(name);
    case 'integer':
    case 'number':
      return numberValue(s, type === 'integer', values);
    case 'array':
      return arrayValue(s, root, values, depth, name);
    case 'object':
      return objectValue(s, root, values, depth);
    default:
      return stringValue(s, values, name);
  }
}

/** Property names that hold what the request is about rather than a name: they take the topic first. */
const FREE_TEXT = /^(?:q|query|search|text|topic|question|prompt|keywords?|message|content|subject|terms?)$/i;

const EMPTY: Record<string, unknown> = {
  string: '',
  number: 0,
  integer: 0,
  boolean: false,
  array: [],
  object: {},
};

function stringValue(s: SchemaNode, values: PromptValues, name: string): string {
  const fallback = typeof s.default === 'string' ? s.default : wordsOf(name).join(' ') || name;
  const topic = values.topic || null;
  let v =
    (typeof s.format === 'string' ? formatted(s.format, values) : null) ??
    (FREE_TEXT.test(name) ? topic : null) ??
    values.nextPhrase() ??
    topic ??
    fallback;
  if (typeof s.pattern === 'string') {
    const re = safeRegExp(s.pattern);
    if (re && !re.test(v)) {
      const made = patternString(s.pattern);
      v =
        values.candidates().find((c) => re.test(c)) ??
        (re.test(fallback) ? fallback : made !== null && re.test(made) ? made : v);
    }
  }
  const chars = [...v];
  if (typeof s.maxLength === 'number' && chars.length > s.maxLength) v = chars.slice(0, s.maxLength).join('');
  if (typeof s.minLength === 'number' && chars.length < s.minLength)
    v = v.padEnd(v.length + s.minLength - chars.length, '_');
  return v;
}

function formatted(format: string, values: PromptValues): string | null {
  const date = values.find(/\b\d{4}-\d{2}-\d{2}\b/) ?? '2024-05-01';
  switch (format) {
    case 'date':
      return date;
    case 'date-time':
      return (
        values.find(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})/) ??
        `${date}T12:00:00Z`
      );
    case 'time':
      return '12:00:00Z';
    case 'email':
      return values.find(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/) ?? 'jane.doe@example.com';
    case 'uri':
    case 'url':
    case 'uri-reference':
    case 'iri':
      return values.find(/https?:\/\/[^\s"'<>]+/) ?? 'https://example.com';
    case 'uuid': {
      const h = hash(values.text).toString(16).padStart(8, '0');
      return `${h}-0000-4000-8000-${h}0000`;
    }
    case 'hostname':
      return 'example.com';
    case 'ipv4':
      return '192.0.2.1';
    case 'ipv6':
      return '2001:db8::1';
    default:
      return null;
  }
}

function numberValue(s: SchemaNode, integer: boolean, values: PromptValues): number {
  const num = (key: string, otherwise: number) =>
    typeof s[key] === 'number' ? (s[key] as number) : otherwise;
  const [min, max] = [num('minimum', -Infinity), num('maximum', Infinity)];
  const [above, below] = [num('exclusiveMinimum', -Infinity), num('exclusiveMaximum', Infinity)];
  const step = num('multipleOf', 0) > 0 ? num('multipleOf', 0) : null;
  const fits = (n: number) =>
    n >= min &&
    n <= max &&
    n > above &&
    n < below &&
    (!integer || Number.isInteger(n)) &&
    (step === null || (n / step) % 1 === 0);
  const found = values.nextNumber(fits);
  if (found !== null) return found;
  const [low, high] = [Math.max(min, above), Math.min(max, below)];
  const start = Number.isFinite(low) ? low : Number.isFinite(high) ? Math.min(0, high) : 0;
  const unit = step ?? (integer ? 1 : 0);
  const first = unit > 0 ? Math.ceil(start / unit) * unit : start;
  return [first, first + (unit || 1), first - (unit || 1), (low + high) / 2].find(fits) ?? first;
}

function arrayValue(
  s: SchemaNode,
  root: unknown,
  values: PromptValues,
  depth: number,
  name: string,
): unknown[] {
  const max = typeof s.maxItems === 'number' ? s.maxItems : Infinity;
  const want = Math.min(max, Math.max(typeof s.minItems === 'number' ? s.minItems : 0, 1));
  const tuple = Array.isArray(s.items) ? (s.items as unknown[]) : null;
  const itemSchema = (i: number) =>
    tuple ? (i < tuple.length ? tuple[i] : isObject(s.additionalItems) ? s.additionalItems : {}) : s.items;
  const out: unknown[] = [];
  const seen = new Set<string>();
  // A few extra tries let uniqueItems skip a repeated value (an enum, a boolean) when others exist.
  for (let i = 0; out.length < want && i < want + 4; i++) {
    let item = write(itemSchema(out.length), root, values, depth + 1, name);
    // A repeated string or boolean gets a sibling value: "tag" → "tag 2", false → true.
    if (s.uniqueItems === true && seen.has(JSON.stringify(item))) {
      if (typeof item === 'string') item = `${item} ${out.length + 1}`;
      else if (typeof item === 'boolean') item = !item;
    }
    const key = JSON.stringify(item);
    if (s.uniqueItems === true && seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

function objectValue(
  s: SchemaNode,
  root: unknown,
  values: PromptValues,
  depth: number,
): Record<string, unknown> {
  const props = isObject(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? s.required.filter((r) => typeof r === 'string') : []);
  const named = (key: string) => {
    if (values.mentions(key)) return true;
    const options = flatten(props[key], root, depth + 1).enum;
    return Array.isArray(options) && values.option(options) !== null;
  };
  const keys = Object.keys(props).filter((key) => required.has(key) || named(key));
  for (const key of required) if (!keys.includes(key)) keys.push(key);
  const least = typeof s.minProperties === 'number' ? s.minProperties : 0;
  for (const key of Object.keys(props)) if (keys.length < least && !keys.includes(key)) keys.push(key);
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const schema = key in props ? props[key] : isObject(s.additionalProperties) ? s.additionalProperties : {};
    out[key] = write(schema, root, values, depth + 1, key);
  }
  return out;
}

/** The schema's pattern as every pattern is matched (linear time), or null when it cannot be. */
function safeRegExp(pattern: string): { test(text: string): boolean } | null {
  const compiled = compilePattern(pattern, 'u');
  return 'error' in compiled ? null : compiled.pattern;
}
