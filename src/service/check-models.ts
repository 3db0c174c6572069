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

/**
 * Reads the model list of every service a candidate may be sent to (`run --model`,
 * `--models`), at once, before anything is sent: what the candidate fits is decided from
 * them (src/run/candidate-fit.ts). A list that cannot be read is null — the id's shape then
 * decides, and a service's first `invalid_model` still stops the run.
 */
export async function readCatalogs(
  services: readonly ServiceConfig[],
  env: NodeJS.ProcessEnv,
): Promise<Map<string, CatalogModel[] | null>> {
  const read = await Promise.all(
    services.map(async (s) => [s.name, await fetchModelCatalog(s, env[s.api_key_env] ?? null)] as const),
  );
  return new Map(read);
}
