import type { CheckDefinition } from '../registry.js';

/** `max_steps`: the tool loop took at most this many requests. */
export const maxSteps: CheckDefinition<number> = {
  schema: {
    type: 'integer',
    minimum: 1,
    title: 'At most N steps',
    description:
      "The case took at most this many requests (a tool loop: one per model turn; a single request is 1 step). Stricter than the case's max_steps, which stops the loop.",
    examples: [3],
  },
  parse: (value) => Number(value),
  run: (value, { conversation }) => {
    const steps = conversation?.steps ?? 1;
    return steps <= value
      ? {
          type: 'max_steps',
          pass: true,
          message: `${steps} step${steps === 1 ? '' : 's'} (at most ${value})`,
        }
      : { type: 'max_steps', pass: false, message: `expected at most ${value} steps, took ${steps}` };
  },
};
