import type { ServiceConfig } from '../config/types.js';
import { fetchModelCatalog, fetchModelEndpoints, fetchProviders } from './models.js';
import { type CatalogModel } from '../core/catalog.js';

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
