import { describeCall, type ToolCall } from '../../core/tool-calls.js';
import type { CheckDefinition, ToolNamed } from '../registry.js';
import { CALL_SPEC, type CallSpec, describeSpec, matchAll, mismatch, sampleCalls } from '../tool-match.js';
import { joinWithin, MAX_MESSAGE_CHARS } from '../../util/shorten.js';

const MODES = ['strict', 'in_order', 'any_order'] as const;
type Mode = (typeof MODES)[number];

/** `trajectory`: the tools a tool loop called, in order. */
export interface TrajectorySpec {
  mode: Mode;
  calls: CallSpec[];
}

const calls = {
  type: 'array',
  minItems: 1,
  items: {
    anyOf: [
      { type: 'string', minLength: 1 },
      { type: 'object', additionalProperties: false, required: ['name'], properties: CALL_SPEC },
    ],
  },
};

export const trajectory: CheckDefinition<TrajectorySpec> = {
  schema: {
    title: 'Trajectory',
    description:
      'The tools the case called over every step, in order: a list (strict: exactly these calls, in this order), or { in_order: [...] } (these in this order, others allowed between) or { any_order: [...] } (exactly these, in any order). Each call is a tool name or { name, arguments, match, ignore, schema }, arguments matched as tool_call matches them.',
    anyOf: [
      { ...calls, title: 'Strict' },
      ...MODES.map((mode) => ({
        type: 'object',
        additionalProperties: false,
        required: [mode],
        properties: { [mode]: { ...calls, title: mode } },
      })),
    ],
    examples: [
      ['lookup_order', 'check_policy'],
      { in_order: ['lookup_order', { name: 'refund', arguments: { order: '42' } }] },
    ],
  },
  parse: (value) => {
    const [mode, list] = Array.isArray(value)
      ? (['strict', value] as const)
      : (Object.entries(value as Record<Mode, unknown[]>)[0] as [Mode, unknown[]]);
    return { mode, calls: list.map((c) => (typeof c === 'string' ? { name: c } : { ...(c as CallSpec) })) };
  },
  toolNames: (value) => {
    const list = Array.isArray(value) ? value : Object.values((value ?? {}) as Record<string, unknown[]>)[0];
    const prefix = Array.isArray(value) ? '' : `/${Object.keys(value as object)[0]}`;
    return (Array.isArray(list) ? list : []).flatMap((c, i): ToolNamed[] =>
      typeof c === 'string'
        ? [{ pointer: `${prefix}/${i}`, name: c }]
        : typeof (c as CallSpec)?.name === 'string'
          ? [{ pointer: `${prefix}/${i}/name`, name: (c as CallSpec).name! }]
          : [],
    );
  },
  run: (value, context) => {
    const made = sampleCalls(context);
    const pass = fits(value, made);
    const expected = `${value.calls.map(describeSpec).join(' → ')} (${value.mode.replace('_', ' ')})`;
    const got = made.length ? joinWithin(made.map(describeCall), ' → ', MAX_MESSAGE_CHARS / 2) : 'no call';
    return pass
      ? { type: 'trajectory', pass: true, message: `${got} (${value.mode.replace('_', ' ')})` }
      : { type: 'trajectory', pass: false, message: `expected ${expected}, got ${got}` };
  },
};

function fits({ mode, calls: specs }: TrajectorySpec, made: readonly ToolCall[]): boolean {
  if (mode === 'any_order') return made.length === specs.length && matchAll(specs, made);
  if (mode === 'strict')
    return made.length === specs.length && specs.every((spec, i) => mismatch(spec, made[i]!) === null);
  // in_order: each expected call found after the one before it.
  let at = 0;
  for (const call of made) if (at < specs.length && mismatch(specs[at]!, call) === null) at++;
  return at === specs.length;
}
