import type { ModelCatalog } from '../core/catalog.js';
import { adapterOf } from '../adapters/index.js';
import { fetchModelCatalog } from '../service/models.js';
import type { Config } from '../config/types.js';

/** A catalog read for a hint, not for the run: an unreachable router must not hold up the error. */
const CATALOG_TIMEOUT_S = 10;

/**
 * Where `run` finds the catalog an alias hint names models from: the simulator's own for
 * `--sim` (what the run would have used), else the `GET /models` of the first configured
 * service whose kind resolves aliases (its adapter's `aliases`: the router), undefined when
 * there is none or it cannot be read. Called only when a suite names an alias, so a run
 * without one never reads it.
 */
export function aliasCatalog(
  config: Config,
  env: NodeJS.ProcessEnv,
  sim: boolean,
): () => Promise<ModelCatalog | undefined> {
  return async () => {
    if (sim) {
      const { simModelCatalog } = await import('../sim/catalog.js');
      return { models: simModelCatalog(), source: "the simulator's catalog" };
    }
    const router = Object.values(config.services).find((s) => adapterOf(s).aliases);
    if (!router) return undefined;
    const timeout_s = Math.min(router.timeout_s, CATALOG_TIMEOUT_S);
    const models = await fetchModelCatalog({ ...router, timeout_s }, env[router.api_key_env] ?? null);
    return models ? { models, source: `the model list of service '${router.name}'` } : undefined;
  };
}
