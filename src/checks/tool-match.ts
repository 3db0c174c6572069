import { compareJson, type JsonChange, listJsonChanges } from '../util/json-compare.js';
import { draft7Validator } from '../core/draft7.js';
import type { ToolCall } from '../core/tool-calls.js';
import type { CheckContext } from './registry.js';
import { formatAjvErrors } from '../util/schema-cache.js';

/** One expected call: the tool, and its arguments matched partially or exactly (ignoring paths) or against a schema. */
export interface CallSpec {
  name?: string;
  arguments?: Record<string, unknown>;
  /** partial (default): the given values, other arguments allowed; exact: these arguments and no others. */
  match?: 'partial' | 'exact';
  /** JSON paths not compared, as drift lists them (`$.units`, `$.items[0].id`). */
  ignore?: string[];
  /** A JSON Schema (draft 7) the arguments must validate against. */
  schema?: Record<string, unknown>;
}

/** The JSON Schema properties of one expected call (`tool_call`, `trajectory`). */
export const CALL_SPEC = {
  name: { type: 'string', minLength: 1, title: 'Tool name', description: 'The function called.' },
  arguments: {
    type: 'object',
    title: 'Arguments',
    description: 'Argument values the call must have (partial match unless match: exact).',
  },
  match: {
    enum: ['partial', 'exact'],
    title: 'Argument match',
    description:
      'partial (default): these values, other arguments allowed; exact: these arguments and no others.',
  },
  ignore: {
    type: 'array',
    items: { type: 'string', pattern: '^\\$' },
    title: 'Ignored paths',
    description: 'JSON paths not compared, e.g. $.request_id or $.items[0].note.',
  },
  schema: {
    type: 'object',
    title: 'Arguments schema',
    description: 'A JSON Schema (draft 7) the arguments must validate against.',
  },
};

/** Whether `path` is `ignored` or lies below it. */
function under(path: string, ignored: string): boolean {
  return path === ignored || path.startsWith(`${ignored}.`) || path.startsWith(`${ignored}[`);
}

/** What keeps a call from matching a spec, or null when it matches. */
export function mismatch(spec: CallSpec, call: ToolCall): string | null {
  if (spec.name !== undefined && call.name !== spec.name) return `tool ${call.name}, not ${spec.name}`;
  if (spec.arguments === undefined && spec.schema === undefined) return null;
  if (call.invalid === 'invalid_json') return `${call.name}: the arguments are not JSON`;
  if (spec.arguments !== undefined) {
    const changes = compareJson(spec.arguments, call.parsed).filter(
      (c: JsonChange) =>
        !(spec.match !== 'exact' && c.kind === 'added') && !(spec.ignore ?? []).some((p) => under(c.path, p)),
    );
    if (changes.length > 0) return `${call.name} arguments: ${listJsonChanges(changes)} (expected → got)`;
  }
  if (spec.schema !== undefined) {
    const validate = draft7Validator(spec.schema);
    if (!(validate instanceof Function)) return `invalid arguments schema in the suite: ${validate.error}`;
    if (!validate(call.parsed)) return `${call.name} arguments: ${formatAjvErrors(validate.errors ?? [])}`;
  }
  return null;
}

/** Each spec matched by a distinct call, in any order (calls are few: a small search). */
export function matchAll(specs: readonly CallSpec[], calls: readonly ToolCall[]): boolean {
  const used = new Array<boolean>(calls.length).fill(false);
  const place = (i: number): boolean => {
    if (i === specs.length) return true;
    for (let j = 0; j < calls.length; j++) {
      if (used[j] || mismatch(specs[i]!, calls[j]!) !== null) continue;
      used[j] = true;
      if (place(i + 1)) return true;
      used[j] = false;
    }
    return false;
  };
  return place(0);
}

/** How a spec is named in a message: `get_weather with {"city":"Paris"}`. */
export function describeSpec(spec: CallSpec): string {
  const name = spec.name ?? 'any tool';
  const args =
    spec.arguments !== undefined
      ? ` with ${JSON.stringify(spec.arguments)}${spec.match === 'exact' ? ' exactly' : ''}`
      : '';
  return `${name}${args}${spec.schema !== undefined ? ' (arguments matching a schema)' : ''}`;
}

/** The calls a sample made: every step's of a tool loop, in order, else its answer's. */
export function sampleCalls(context: Pick<CheckContext, 'completion' | 'conversation'>): readonly ToolCall[] {
  return context.conversation?.calls ?? context.completion.tool_calls ?? [];
}
