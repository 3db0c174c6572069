import { describeCall } from '../../core/tool-calls.js';
import type { CheckDefinition } from '../registry.js';
import { joinWithin, MAX_MESSAGE_CHARS } from '../../util/shorten.js';

/** `no_tool_call`: true — the answer calls no tool; a name — it does not call that tool. */
export const noToolCall: CheckDefinition<true | string> = {
  schema: {
    title: 'No tool call',
    description:
      'true: the answer calls no tool (it answers in text); a tool name: it does not call that tool.',
    anyOf: [{ const: true }, { type: 'string', minLength: 1 }],
    examples: [true, 'delete_account'],
  },
  parse: (value) => (value === true ? true : String(value)),
  toolNames: (value) => (typeof value === 'string' ? [{ pointer: '', name: value }] : []),
  run: (value, { completion }) => {
    const calls = (completion.tool_calls ?? []).filter((c) => value === true || c.name === value);
    const what = value === true ? 'no tool call' : `no call of ${value}`;
    return calls.length === 0
      ? { type: 'no_tool_call', pass: true, message: what }
      : {
          type: 'no_tool_call',
          pass: false,
          message: `expected ${what}, got ${joinWithin(calls.map(describeCall), ', ', MAX_MESSAGE_CHARS - what.length - 15)}`,
        };
  },
};
