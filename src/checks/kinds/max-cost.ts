import { formatUsd } from '../../util/numbers.js';
import type { CheckDefinition } from '../registry.js';

/** `max_cost`: the sample's answer cost at most this many USD (judge calls not included). */
export const maxCost: CheckDefinition<number> = {
  schema: {
    type: 'number',
    minimum: 0,
    title: 'Cost ceiling (USD)',
    description:
      "Passes when the answer cost at most this many USD: the service's usage.cost, else its tokens at the config's prices:. Fails when neither gives a cost. Judge calls are not counted.",
  },
  parse: (value) => Number(value),
  run: (value, { measured }) => {
    const { cost } = measured;
    if (cost === null)
      return {
        type: 'max_cost',
        pass: false,
        message: `cannot check a cost ≤ ${formatUsd(value)}: the service reported no usage.cost and the model has no price (add it to prices: in the config)`,
      };
    const pass = cost <= value;
    return {
      type: 'max_cost',
      pass,
      message: pass
        ? `cost ${formatUsd(cost)} ≤ ${formatUsd(value)}`
        : `expected a cost of at most ${formatUsd(value)}, the answer cost ${formatUsd(cost)}`,
    };
  },
};
