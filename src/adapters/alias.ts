import type { ModelCatalog } from '../core/catalog.js';

/**
 * True for a latest-family alias (`~author/family-latest`), which the routing service
 * may resolve to a different concrete model from one run to the next. Any `~author/…`
 * id counts: the tilde is what marks a moving target.
 */
export function isAlias(model: string): boolean {
  return /^~[^\s/]+\/\S+$/.test(model);
}

/**
 * The concrete models of an alias's family in a catalog, the one it points at today first:
 * the catalog's own `alias_target` when it lists the alias, then every concrete id of the
 * same author whose name holds each word of the family (`~openai/gpt-mini-latest` →
 * `openai/gpt-4o-mini`), in the catalog's order.
 */
export function familyMembers(alias: string, catalog: ModelCatalog): string[] {
  const [author = '', name = ''] = alias.slice(1).split('/', 2);
  const words = name
    .replace(/-latest$/, '')
    .split('-')
    .filter(Boolean);
  const target = catalog.models.find((m) => m.id === alias)?.alias_target;
  const members = catalog.models
    .filter((m) => !isAlias(m.id) && m.id.startsWith(`${author}/`))
    .filter((m) => words.every((w) => m.id.slice(author.length + 1).includes(w)))
    .map((m) => m.id);
  return [...new Set([...(target ? [target] : []), ...members])];
}

/**
 * What to do about an alias: `driftcheck pin` on the very suite file when it can pin it
 * (`pinFile`: the suite's own `model:`), and, when a catalog is at hand, the concrete
 * models of the alias's family it lists — never a fixed example from another family.
 */
export function aliasHint(alias: string, pinFile: string | null, catalog: ModelCatalog | undefined): string {
  const members = catalog ? familyMembers(alias, catalog) : [];
  const family = members.length
    ? `one of its family in ${catalog!.source}: ${members.slice(0, 3).join(', ')}`
    : catalog
      ? `a concrete model (${catalog.source} lists none of its family)`
      : "a concrete model (the router's model list shows the one it points at today)";
  const pin = pinFile
    ? `run \`driftcheck pin ${pinFile}\` (it writes the model the alias points at today), or name ${family}`
    : `name ${family}`;
  return `${pin}; pass --allow-alias to run it anyway`;
}
