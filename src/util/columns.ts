type Column = Int32Array | Float64Array | Uint8Array | Uint16Array | Uint32Array;

/** Columns of one kind, by name, all of one length. */
export function columns<K extends string, A extends Column>(
  names: readonly K[],
  make: (length: number) => A,
): Record<K, A> {
  return Object.fromEntries(names.map((name) => [name, make(0)])) as Record<K, A>;
}

/** Widens every column of a set to `capacity` entries, keeping what they hold. */
export function widenColumns<A extends Column>(set: Record<string, A>, capacity: number): void {
  for (const [name, from] of Object.entries(set)) {
    const to = new (from.constructor as new (length: number) => A)(capacity);
    to.set(from);
    set[name] = to;
  }
}

/** A number column's "none" (a null cost or token count) is NaN… */
export const orNaN = (v: number | null | undefined): number => (typeof v === 'number' ? v : Number.NaN);
/** …read back as null. */
export const orNull = (v: number): number | null => (Number.isNaN(v) ? null : v);
