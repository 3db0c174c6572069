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
