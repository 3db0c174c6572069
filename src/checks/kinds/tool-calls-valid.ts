import { describeInvalid } from '../../core/tool-calls.js';
import type { CheckDefinition } from '../registry.js';
import { joinWithin } from '../../util/shorten.js';

/** `tool_calls_valid`: every call is valid against the request's tools (as the router judges them). */
export const toolCallsValid: CheckDefinition<true> = {
  schema: {
    const: true,
    title: 'Tool calls are valid',
    description:
      "true: every tool call's arguments are JSON, name a declared tool and validate against its parameters (JSON Schema draft 7), as the router judges them. Passes on an answer without calls.",
  },
  parse: () => true,
  run: (_value, { completion }) => {
    const calls = completion.tool_calls ?? [];
    const bad = calls.filter((c) => !c.valid);
    if (bad.length === 0)
      return {
        type: 'tool_calls_valid',
        pass: true,
        message: calls.length
          ? `${calls.length} valid tool call${calls.length === 1 ? '' : 's'}`
          : 'no tool calls',
      };
    return {
      type: 'tool_calls_valid',
      pass: false,
      message: joinWithin(bad.map(describeInvalid), '; '),
    };
  },
};
