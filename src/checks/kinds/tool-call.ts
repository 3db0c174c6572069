import { describeCall } from '../../core/tool-calls.js';
import { draft7Problem } from '../../core/draft7.js';
import type { CheckProblem, CheckDefinition, ToolNamed } from '../registry.js';
import { CALL_SPEC as callSpec, type CallSpec, describeSpec, matchAll, mismatch } from '../tool-match.js';
import { describePointer } from '../../yaml/locate.js';
import { joinWithin, MAX_MESSAGE_CHARS } from '../../util/shorten.js';

/** `tool_call`: what the answer's tool calls must be. */
export interface ToolCallSpec extends CallSpec {
  /** Exactly this many calls (of `name`'s tool when given, else of any). */
  count?: number;
  /** Parallel calls, each matched by a distinct call. */
  calls?: CallSpec[];
  /** any (default): in any order; strict: the answer's calls are exactly these, in this order. */
  order?: 'any' | 'strict';
}

/** `tool_call`: the answer calls a tool (by name), with arguments as given; count and order of parallel calls. */
export const toolCall: CheckDefinition<ToolCallSpec> = {
  schema: {
    title: 'Tool call',
    description:
      'Passes when the answer calls the tool: a name, or { name, arguments, match, ignore, schema, count }, or { calls: [...], order, count } for parallel calls.',
    anyOf: [
      { type: 'string', minLength: 1 },
      {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: {
          ...callSpec,
          count: {
            type: 'integer',
            minimum: 0,
            title: 'Count',
            description: 'Exactly this many calls (of the named tool, else of any).',
          },
          calls: {
            type: 'array',
            minItems: 1,
            title: 'Parallel calls',
            description: 'Calls the answer must all make, each matched by a distinct call.',
            items: { type: 'object', additionalProperties: false, properties: callSpec },
          },
          order: {
            enum: ['any', 'strict'],
            title: 'Order',
            description: 'any (default); strict: the answer makes exactly these calls, in this order.',
          },
        },
      },
    ],
    examples: ['get_weather', { name: 'get_weather', arguments: { city: 'Paris' } }],
  },
  parse: (value) => (typeof value === 'string' ? { name: value } : { ...(value as ToolCallSpec) }),
  toolNames: (value) => {
    if (typeof value === 'string') return [{ pointer: '', name: value }];
    if (typeof value !== 'object' || value === null) return [];
    const v = value as Partial<ToolCallSpec>;
    const named = (spec: unknown, pointer: string): ToolNamed[] =>
      typeof spec === 'object' && spec !== null && typeof (spec as CallSpec).name === 'string'
        ? [{ pointer, name: (spec as CallSpec).name! }]
        : [];
    return [
      ...named(v, '/name'),
      ...(Array.isArray(v.calls) ? v.calls : []).flatMap((c, i) => named(c, `/calls/${i}/name`)),
    ];
  },
  problems: (value, where) => {
    if (typeof value !== 'object' || value === null) return [];
    const v = value as ToolCallSpec;
    const out: CheckProblem[] = [];
    const schemaAt = (schema: unknown, pointer: string) => {
      const problem = schema === undefined ? null : draft7Problem(schema);
      if (problem)
        out.push({
          pointer: `${pointer}${problem.pointer}`,
          message: `'${where}.${describePointer(pointer)}' is not a JSON Schema that compiles (draft 7): ${problem.message}`,
          hint: problem.hint ?? 'fix the schema, e.g. { type: object, required: [city] }',
        });
    };
    schemaAt(v.schema, '/schema');
    (Array.isArray(v.calls) ? v.calls : []).forEach((c, i) => schemaAt(c?.schema, `/calls/${i}/schema`));
    return out;
  },
  run: (spec, { completion }) => {
    const calls = completion.tool_calls ?? [];
    const result = (pass: boolean, message: string) => ({ type: 'tool_call' as const, pass, message });
    // Half a message: what was expected takes the rest.
    const got =
      calls.length === 0 ? 'a text answer' : joinWithin(calls.map(describeCall), ', ', MAX_MESSAGE_CHARS / 2);
    if (spec.calls) {
      const counted = spec.count === undefined || calls.length === spec.count;
      const ordered =
        spec.order === 'strict'
          ? calls.length === spec.calls.length && spec.calls.every((s, i) => mismatch(s, calls[i]!) === null)
          : matchAll(spec.calls, calls);
      const wanted = `${spec.calls.map(describeSpec).join(', ')}${spec.order === 'strict' ? ' in this order' : ''}`;
      if (!counted)
        return result(false, `expected ${spec.count} tool calls (${wanted}), got ${calls.length}: ${got}`);
      return ordered
        ? result(true, `calls ${wanted}`)
        : result(false, `expected calls ${wanted}, got ${got}`);
    }
    const matching = calls.filter((c) => mismatch(spec, c) === null);
    if (spec.count !== undefined) {
      const pass = matching.length === spec.count;
      return result(
        pass,
        `${pass ? '' : 'expected '}${spec.count} call${spec.count === 1 ? '' : 's'} of ${describeSpec(spec)}${pass ? '' : `, got ${matching.length}: ${got}`}`,
      );
    }
    if (matching.length > 0) return result(true, `calls ${describeCall(matching[0]!)}`);
    const why = calls.map((c) => mismatch(spec, c)).find((m) => m !== null && !m.startsWith('tool '));
    return result(false, `expected a call of ${describeSpec(spec)}, got ${why ?? got}`);
  },
};
