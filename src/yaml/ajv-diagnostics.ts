import type { ErrorObject } from 'ajv';
import type { Diagnostic } from '../util/errors.js';
import { didYouMean } from '../util/did-you-mean.js';
import { describePointer, escapePointer, pointerSegments } from './locate.js';
import type { YamlMapping } from './parse-mapping.js';
import { kindOf, show, typeInWords } from './show.js';

/** A message and hint for a value that fails a `pattern`, written by the domain that knows why. */
type PatternExplainer = (value: string) => { message: string; hint: string };

export interface AjvTranslation {
  /** How the root object is called in messages ("the suite", "the config"). */
  rootName: string;
  /** Keyed by property name (`id`, `api_key_env`); the default message does not echo the value. */
  patterns?: Record<string, PatternExplainer>;
  /** Which of the errors worth saying to say (default: all): a table's template and its rows split them. */
  keep?: (e: ErrorObject) => boolean;
}

type SchemaNode = { title?: string; description?: string; properties?: Record<string, SchemaNode> };

/**
 * Turns ajv errors (compiled with `allErrors` and `verbose`) into diagnostics that point
 * at the offending YAML node and say in plain words what to change.
 */
export function ajvDiagnostics(errors: ErrorObject[], yaml: YamlMapping, t: AjvTranslation): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const e of branchErrors(errors))
    if (e.keyword !== 'propertyNames' && (t.keep?.(e) ?? true)) out.push(translate(e, yaml, t));
  return out;
}

/**
 * The errors worth saying. A oneOf/anyOf error says it all, and the failures of its branches
 * would only repeat it; but when the value is a mapping or a list and only one branch takes
 * that kind of value (`tool_call: { nme: a }` beside the name's string), what is wrong is
 * inside that branch: its own errors are said instead (an unknown key with a did-you-mean,
 * not "must be string or object, got a mapping").
 */
function branchErrors(errors: ErrorObject[]): ErrorObject[] {
  const choices = errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf');
  const under = (e: ErrorObject, o: ErrorObject, path = o.schemaPath) =>
    e !== o && e.schemaPath.startsWith(`${path}/`) && e.instancePath.startsWith(o.instancePath);
  const kept = new Set(errors);
  for (const o of choices) {
    const branch = soleBranch(o);
    if (branch === null) {
      // Said by the choice alone: its branches' failures at the same value would repeat it.
      for (const e of errors) if (under(e, o) && e.instancePath === o.instancePath) kept.delete(e);
      continue;
    }
    const inside = errors.filter((e) => under(e, o, `${o.schemaPath}/${branch}`));
    if (inside.length === 0) continue;
    kept.delete(o);
    // The other branches' failures are not about this value's kind.
    for (const e of errors) if (under(e, o) && !inside.includes(e)) kept.delete(e);
  }
  return errors.filter((e) => kept.has(e));
}

/** The one branch of a oneOf/anyOf that takes a value of this kind (a mapping or a list), or null. */
function soleBranch(e: ErrorObject): number | null {
  const data = e.data;
  const kind = Array.isArray(data) ? 'array' : data !== null && typeof data === 'object' ? 'object' : null;
  if (kind === null || !Array.isArray(e.schema)) return null;
  const taking = (e.schema as { type?: unknown }[]).flatMap((b, i) => {
    const types = Array.isArray(b?.type) ? b.type : [b?.type];
    return types.includes(kind) ? [i] : [];
  });
  return taking.length === 1 ? taking[0]! : null;
}

function translate(e: ErrorObject, yaml: YamlMapping, t: AjvTranslation): Diagnostic {
  const at = (pointer: string, key: boolean, message: string, hint?: string): Diagnostic => ({
    file: yaml.file,
    ...yaml.locate(pointer, { key }),
    message,
    ...(hint ? { hint } : {}),
  });
  const parent = (e.parentSchema ?? {}) as SchemaNode;
  const params = e.params as Record<string, unknown>;
  const name = e.instancePath === '' ? t.rootName : `'${describePointer(e.instancePath)}'`;
  const inside = e.instancePath === '' ? '' : ` in ${describePointer(e.instancePath)}`;
  const about = describe(parent);

  if (e.propertyName !== undefined) {
    // propertyNames failures: the key itself is wrong (a service name, a header name).
    const keyPath = `${e.instancePath}/${escapePointer(e.propertyName)}`;
    return at(keyPath, true, `${show(e.propertyName)}${inside} is not a valid name`, about);
  }
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const allowed = Object.keys(parent.properties ?? {});
      const guess = didYouMean(key, allowed);
      const hint = guess ? `did you mean '${guess}'?` : `allowed keys here: ${allowed.join(', ')}`;
      return at(`${e.instancePath}/${escapePointer(key)}`, true, `unknown key ${show(key)}${inside}`, hint);
    }
    case 'required': {
      const key = String(params.missingProperty);
      const sub = parent.properties?.[key];
      const hint = `add '${key}:'${sub ? ` — ${describe(sub) ?? ''}` : ''}`.replace(/ — $/, '');
      return at(e.instancePath, false, `missing required key '${key}'${inside}`, hint);
    }
    case 'type': {
      const expected = String(params.type).split(',').map(typeInWords).join(' or ');
      const hint =
        params.type === 'string' && (typeof e.data === 'number' || typeof e.data === 'boolean')
          ? `quote the value: "${String(e.data)}"`
          : about;
      return at(e.instancePath, false, `${name} must be ${expected}, got ${kindOf(e.data)}`, hint);
    }
    case 'enum':
    case 'const': {
      const allowed = (
        e.keyword === 'enum' ? (params.allowedValues as unknown[]) : [params.allowedValue]
      ).map(String);
      const guess = typeof e.data === 'string' ? didYouMean(e.data, allowed) : undefined;
      return at(
        e.instancePath,
        false,
        `${name} must be one of ${allowed.join(', ')}; got ${show(e.data)}`,
        guess ? `did you mean '${guess}'?` : about,
      );
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return at(
        e.instancePath,
        false,
        `${name} must be ${params.comparison} ${params.limit}, got ${show(e.data)}`,
        about,
      );
    case 'minLength':
      return at(e.instancePath, false, `${name} must not be empty`, about);
    case 'maxLength':
      return at(e.instancePath, false, `${name} is too long (at most ${params.limit} characters)`, about);
    case 'minItems':
      return at(
        e.instancePath,
        false,
        `${name} needs at least ${params.limit} item${params.limit === 1 ? '' : 's'}`,
        about,
      );
    case 'minProperties':
      return at(e.instancePath, false, `${name} is empty`, about);
    case 'maxProperties': {
      const keys = Object.keys((e.data ?? {}) as object);
      return at(
        e.instancePath,
        false,
        `${name} takes exactly ${params.limit} key, found ${keys.length} (${keys.join(', ')})`,
        about,
      );
    }
    case 'pattern': {
      const last = pointerSegments(e.instancePath).at(-1) ?? '';
      const explain = t.patterns?.[last];
      if (explain && typeof e.data === 'string') {
        const { message, hint } = explain(e.data);
        return at(e.instancePath, false, `${name} ${message}`, hint);
      }
      return at(e.instancePath, false, `${name} has the wrong form`, about);
    }
    case 'oneOf':
      return oneOf(e, name, at);
    case 'anyOf': {
      // `anyOf: [{required: [cases]}, {required: [tables]}]`: at least one of these keys.
      const keys = (e.schema as { required?: string[] }[]).map((b) => b.required?.[0]);
      if (keys.every((k) => k !== undefined)) {
        return at(
          e.instancePath,
          false,
          `missing required key ${keys.map((k) => `'${k}'`).join(' or ')}${inside}`,
          `add ${keys.map((k) => `'${k}:'`).join(' or ')}, or both`,
        );
      }
      return at(
        e.instancePath,
        false,
        `${name} must be ${alternatives(e.schema as SchemaNode[])}, got ${show(e.data)}`,
        about,
      );
    }
    default:
      return at(e.instancePath, false, `${name} ${e.message ?? 'is invalid'}`, about);
  }
}

/** `oneOf` over `{required: [x]}` branches means "exactly one of these keys". */
function oneOf(
  e: ErrorObject,
  name: string,
  at: (pointer: string, key: boolean, message: string, hint?: string) => Diagnostic,
): Diagnostic {
  const branches = (e.schema as { required?: string[] }[]).map((b) => b.required?.[0] ?? '?');
  const present = branches.filter((k) => Object.hasOwn((e.data ?? {}) as object, k));
  const list = branches.map((k) => `'${k}'`).join(' or ');
  if (present.length > 1) {
    const pointer = `${e.instancePath}/${escapePointer(present.at(-1) ?? '')}`;
    return at(
      pointer,
      true,
      `${name} has both ${present.map((k) => `'${k}'`).join(' and ')}`,
      `keep exactly one of ${list}`,
    );
  }
  return at(e.instancePath, false, `${name} needs ${list}`, `add exactly one of ${list}`);
}

/** `anyOf: [{type: integer, minimum: 1}, {const: auto}]` → "a whole number ≥ 1 or 'auto'". */
function alternatives(branches: SchemaNode[]): string {
  return branches
    .map((b) => {
      const node = b as SchemaNode & { const?: unknown; type?: unknown; minimum?: number };
      if (node.const !== undefined) return `'${String(node.const)}'`;
      if (node.type === 'integer')
        return node.minimum !== undefined ? `a whole number ≥ ${node.minimum}` : 'a whole number';
      return String(node.type ?? 'another form');
    })
    .join(' or ');
}

function describe(schema: SchemaNode): string | undefined {
  const text = schema.description ?? schema.title;
  // Schema descriptions can run long (editor tooltips); a hint wants the first sentence.
  return text?.split(/(?<!\be\.g|\bi\.e)(?<=\.)\s+(?=[A-Z])/)[0];
}
