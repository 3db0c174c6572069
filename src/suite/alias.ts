/**
 * True for a latest-family alias (`~author/family-latest`), which the routing service
 * may resolve to a different concrete model from one run to the next. Any `~author/…`
 * id counts: the tilde is what marks a moving target.
 */
export function isAlias(model: string): boolean {
  return /^~[^\s/]+\/\S+$/.test(model);
}
