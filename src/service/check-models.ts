import type { ServiceConfig } from '../config/types.js';
import { didYouMean } from '../util/did-you-mean.js';
import { fetchModelCatalog, fetchModelEndpoints, fetchProviders } from './models.js';
import { type CatalogModel } from '../core/catalog.js';

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

/** What a routing service lists of its providers, read at most once each for one run's candidates. */
export interface ProviderLists {
  /** Its providers' slugs (`GET /providers`), null when the list cannot be read. */
  providers(service: ServiceConfig): Promise<string[] | null>;
  /** The slugs of the providers serving a model (`GET /models/{author}/{slug}/endpoints`), null when unreadable. */
  endpoints(service: ServiceConfig, model: string): Promise<string[] | null>;
}

/** ProviderLists read with the services' keys from `env` (trimmed, as a run reads them). */
export function providerLists(env: NodeJS.ProcessEnv): ProviderLists {
  const read = new Map<string, Promise<string[] | null>>();
  const once = (key: string, get: () => Promise<string[] | null>) => {
    let list = read.get(key);
    if (!list) read.set(key, (list = get()));
    return list;
  };
  const key = (s: ServiceConfig) => env[s.api_key_env]?.trim() || null;
  return {
    providers: (s) => once(s.name, () => fetchProviders(s, key(s))),
    endpoints: (s, model) => once(`${s.name}\n${model}`, () => fetchModelEndpoints(s, key(s), model)),
  };
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
