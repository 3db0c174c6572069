import { didYouMean } from '../util/did-you-mean.js';
/** One row of the router's `GET /models`: a `~` alias row names its current concrete target. */
export interface CatalogModel {
  id: string;
  alias_target: string | null;
  /** USD per token, as the router lists it (`pricing.prompt`, `.completion`), when it gives both. */
  pricing?: { prompt: number; completion: number };
}

/** A service's model list and where it came from (said in hints: "the simulator's catalog"). */
export interface ModelCatalog {
  models: readonly CatalogModel[];
  source: string;
}

/** USD per 1 million tokens for one model (the unit price lists use). */
export interface ModelPrice {
  prompt: number;
  completion: number;
}

/** `prices:` in the config, by concrete model id. */
export type Prices = Record<string, ModelPrice>;

/** At most this many ids of the same author are offered when no spelling is close. */
const SAME_AUTHOR_SHOWN = 8;

/**
 * What to suggest for a model id a catalog does not list: the closest id, else the
 * catalog's ids of the same author; null when neither helps. Pure.
 */
export function catalogHint(model: string, catalog: readonly CatalogModel[]): string | null {
  const ids = catalog.map((m) => m.id);
  const guess = didYouMean(model, ids);
  if (guess) return `did you mean ${guess}?`;
  const author = model.includes('/') ? model.slice(0, model.indexOf('/') + 1) : null;
  const same = author ? ids.filter((id) => id.startsWith(author)).slice(0, SAME_AUTHOR_SHOWN) : [];
  return same.length ? `its ${author!.slice(0, -1)} models: ${same.join(', ')}` : null;
}

/** At most this many provider slugs are listed when no spelling is close. */
const PROVIDERS_SHOWN = 12;

/** What to suggest for a provider slug a list does not have: the closest slug, else the list's first ones. Pure. */
export function providerHint(slug: string, slugs: readonly string[]): string | null {
  const guess = didYouMean(slug, slugs);
  if (guess) return `did you mean ${guess}?`;
  if (slugs.length === 0) return null;
  const more = slugs.length > PROVIDERS_SHOWN ? `, … (${slugs.length} in all)` : '';
  return `its providers: ${slugs.slice(0, PROVIDERS_SHOWN).join(', ')}${more}`;
}
