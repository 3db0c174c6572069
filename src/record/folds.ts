import { Tally } from '../util/tally.js';
import type { Fold, JsonSchema } from './field.js';

const nullable = (value: JsonSchema): JsonSchema => ({ ...value, type: [value.type, 'null'] });

/**
 * The first sample's value (the answer a baseline keeps), or null. Keeps no state. A case
 * line leaves it out when it is `line(entry)` (default: null).
 */
export function firstValue<V>(
  line: (entry: Readonly<Record<string, unknown>>) => unknown = () => null,
): Fold<V, V | null> {
  return {
    schema: nullable,
    result: (_state, kept) => kept.first,
    line,
  };
}

/** The first sample's value, else the first failing sample's (a refusal's text). */
export function firstOrFailure<V>(): Fold<V, V | null> {
  return { ...firstValue<V>(), result: (_state, kept) => kept.first ?? kept.failure };
}

/**
 * Every value the samples gave, most frequent first (one sample of ten served elsewhere
 * shows). A case line leaves it out when it is the one value of the case entry's field of
 * the recorded field's own name (`provider` for `providers`), or none.
 */
export function everyValue<V>(): Fold<V, V[]> {
  return {
    line: (entry, field) => (entry[field] == null ? [] : [entry[field]]),
    schema: (value) => ({ type: 'array', items: value }),
    state: {
      // No Tally until a value arrives: most fields are absent on most services.
      start: () => null,
      add: (state, value) => {
        const tally = (state as Tally<V> | null) ?? new Tally<V>();
        tally.add(value);
        return tally;
      },
    },
    result: (state) => (state === null ? [] : (state as Tally<V>).byFrequency()),
  };
}

/** The sum over the samples (0 when none said). */
export function sum(): Fold<number, number> {
  return {
    schema: (value) => ({ ...value, minimum: 0 }),
    state: {
      start: () => 0,
      add: (state, value) => (Number.isFinite(value) ? (state as number) + value : state),
    },
    result: (state) => state as number,
    line: () => 0,
  };
}
