type Column = Int32Array | Float64Array | Uint8Array | Uint16Array | Uint32Array;

/** Columns of one kind, by name, all of one length. */
export function columns<K extends string, A extends Column>(
  names: readonly K[],
  make: (length: number) => A,
): Record<K, A> {
  return Object.fromEntries(names.map((name) => [name, make(0)])) as Record<K, A>;
}

/** Widens every column of a set (of one kind or several) to `capacity` entries, keeping what they hold. */
export function widenColumns<S extends Record<keyof S, Column>>(set: S, capacity: number): void {
  for (const name of Object.keys(set) as (keyof S)[]) {
    const from = set[name];
    const to = new (from.constructor as new (length: number) => S[keyof S])(capacity);
    to.set(from);
    set[name] = to;
  }
}

/** 0, 1, …, n - 1: the slots of n entries. */
export function* range(n: number): Generator<number> {
  for (let i = 0; i < n; i++) yield i;
}

/** A number column's "none" (a null cost or token count) is NaN… */
export const orNaN = (v: number | null | undefined): number => (typeof v === 'number' ? v : Number.NaN);
/** …read back as null. */
export const orNull = (v: number): number | null => (Number.isNaN(v) ? null : v);
