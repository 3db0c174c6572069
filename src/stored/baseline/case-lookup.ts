/**
 * A baseline's cases (or what is read of them) one at a time, by id: a baseline held whole
 * gives its own, a large one makes each as it is asked for (FigureColumns).
 */
export interface CaseLookup<C> {
  get(id: string): C | undefined;
  has(id: string): boolean;
  /** Case ids in the baseline's order. */
  ids(): Iterable<string>;
}

/** A baseline's cases as a CaseLookup (one already is one). */
export function lookupOf<C>(baseline: { cases: Record<string, C> } | CaseLookup<C>): CaseLookup<C> {
  if (!('cases' in baseline)) return baseline;
  const { cases } = baseline;
  return {
    get: (id) => (Object.hasOwn(cases, id) ? cases[id] : undefined),
    has: (id) => Object.hasOwn(cases, id),
    ids: () => Object.keys(cases),
  };
}
