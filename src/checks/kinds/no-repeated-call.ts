import { callKey, describeCall } from '../../core/tool-calls.js';
import type { CheckDefinition } from '../registry.js';
import { sampleCalls } from '../tool-match.js';

/** `no_repeated_call`: no tool is called twice with the same arguments (a loop). */
export const noRepeatedCall: CheckDefinition<true> = {
  schema: {
    const: true,
    title: 'No repeated call',
    description:
      'true: no tool is called twice with the same arguments (key order aside) — in a tool loop, over every step; a model that asks the same thing again is looping.',
  },
  parse: () => true,
  run: (_value, context) => {
    const seen = new Set<string>();
    for (const call of sampleCalls(context)) {
      const key = callKey(call);
      if (seen.has(key))
        return { type: 'no_repeated_call', pass: false, message: `${describeCall(call)} called again` };
      seen.add(key);
    }
    return { type: 'no_repeated_call', pass: true, message: 'no call repeated' };
  },
};
