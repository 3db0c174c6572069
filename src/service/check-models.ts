import type { ServiceConfig } from '../types.js';
import { didYouMean } from '../util/did-you-mean.js';
import { type CatalogModel, fetchModelCatalog } from './models.js';

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

/** The model lists (`GET /models`) of some services, by service name; null for one that cannot be read. */
export type CatalogReader = (
  services: readonly ServiceConfig[],
) => Promise<Map<string, CatalogModel[] | null>>;

/**
 * Reads model lists for one run, each service's at most once: the candidates' fit
 * (src/run/candidate-fit.ts) and a cost cap's prices ask for the same routers before
 * anything is sent. A list that cannot be read is null — the id's shape then decides, and a
 * service's first `invalid_model` still stops the run. The key is read as a run reads it
 * (trimmed: a key pasted from a file carries a newline).
 */
export function catalogReader(env: NodeJS.ProcessEnv): CatalogReader {
  const lists = new Map<string, Promise<CatalogModel[] | null>>();
  const listOf = (s: ServiceConfig) => {
    let list = lists.get(s.name);
    if (!list) lists.set(s.name, (list = fetchModelCatalog(s, env[s.api_key_env]?.trim() || null)));
    return list;
  };
  return async (services) =>
    new Map(await Promise.all(services.map(async (s) => [s.name, await listOf(s)] as const)));
}
