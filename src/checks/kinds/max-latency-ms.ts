import type { CheckDefinition } from '../registry.js';

/** `max_latency_ms`: the sample answered within this many milliseconds. */
export const maxLatencyMs: CheckDefinition<number> = {
  schema: {
    type: 'number',
    exclusiveMinimum: 0,
    title: 'Latency ceiling (ms)',
    description:
      'Passes when the answer took at most this many milliseconds, from the request sent to the answer read (the attempt that answered; retry waits do not count).',
  },
  parse: (value) => Number(value),
  run: (value, { measured }) => {
    if (measured.latency_ms === null)
      return {
        type: 'max_latency_ms',
        pass: false,
        message: `cannot check an answer within ${value} ms: the sample recorded no latency`,
      };
    const pass = measured.latency_ms <= value;
    return {
      type: 'max_latency_ms',
      pass,
      message: pass
        ? `answered in ${measured.latency_ms} ms ≤ ${value} ms`
        : `expected an answer within ${value} ms, it took ${measured.latency_ms} ms`,
    };
  },
};
