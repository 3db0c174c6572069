import { UsageError } from '../errors.js';
import type { ServiceConfig } from '../types.js';
import { didYouMean } from '../util/did-you-mean.js';
import { type CatalogModel, fetchModelCatalog } from './models.js';

/** At most this many ids of the same author are offered when no spelling is close. */
const SAME_AUTHOR_SHOWN = 8;

/**
 * What is wrong with model ids the catalog does not list, one message each with a hint: the
 * closest id, else the catalog's ids of the same author. Empty when every id is listed. Pure.
 */
export function unknownModels(models: readonly string[], catalog: readonly CatalogModel[]): string[] {
  const ids = catalog.map((m) => m.id);
  const known = new Set(ids);
  return models
    .filter((m) => !known.has(m))
    .map((model) => {
      const guess = didYouMean(model, ids);
      if (guess) return `${model} is not in the catalog\n  → did you mean ${guess}?`;
      const author = model.includes('/') ? model.slice(0, model.indexOf('/') + 1) : null;
      const same = author ? ids.filter((id) => id.startsWith(author)).slice(0, SAME_AUTHOR_SHOWN) : [];
      return same.length
        ? `${model} is not in the catalog\n  → its ${author!.slice(0, -1)} models: ${same.join(', ')}`
        : `${model} is not in the catalog\n  → list the models with GET /models of the service`;
    });
}

/**
 * Checks candidate models (`run --model`, `--models`) against the model list of every
 * routing service they will be sent to, before anything is sent: a mistyped id is a usage
 * error (exit 2), not a run that sends every case to get `invalid_model` back. A service
 * whose list cannot be read is not checked (its first `invalid_model` still stops the run).
 */
export async function checkCandidateModels(
  models: readonly string[],
  services: readonly ServiceConfig[],
  env: NodeJS.ProcessEnv,
  flag = '--model',
): Promise<void> {
  if (models.length === 0) return;
  for (const service of services) {
    if (service.kind !== 'router') continue;
    const catalog = await fetchModelCatalog(service, env[service.api_key_env] ?? null);
    if (!catalog) continue;
    const problems = unknownModels(
      models.filter((m) => !m.startsWith('~')),
      catalog,
    );
    if (problems.length)
      throw new UsageError(
        `${flag}: the service ${service.name} (${service.base_url}) lists no such model; nothing was sent\n${problems.join('\n')}`,
      );
  }
}
