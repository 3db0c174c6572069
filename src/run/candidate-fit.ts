import { ADAPTERS, adapterOf } from '../adapters/index.js';
import { catalogHint, providerHint } from '../core/catalog.js';
import type { CatalogModel } from '../core/catalog.js';
import type { Config, ServiceConfig } from '../config/types.js';
import type { Suite } from '../suite/types.js';
import type { SkippedSuite } from '../stored/report/types.js';

/** One candidate of `run --model`/`--models`/`--providers`: a model, a router provider, or both. */
export interface Candidate {
  model?: string;
  provider?: string;
}

/** What each service's `GET /models` listed, by service name; null when it could not be read. */
export type Catalogs = ReadonlyMap<string, readonly CatalogModel[] | null>;

/**
 * The providers serving a model on a routing service, as its `GET /models/{author}/{slug}/endpoints`
 * tags them, by endpointKey; null (or absent) when the list could not be read.
 */
type Endpoints = ReadonlyMap<string, readonly string[] | null>;

export const endpointKey = (service: string, model: string): string => `${service}\n${model}`;

/** Whether a provider slug is among a list's (`deepinfra` is in `deepinfra/fp8`'s). Pure. */
export function providerListed(provider: string, slugs: readonly string[]): boolean {
  return slugs.some((tag) => tag === provider || tag.startsWith(`${provider}/`));
}

/**
 * Whether a provider slug is one of the routing services' providers (their `GET
 * /providers`), with the closest slugs when not; it fits when no list could be read. Pure.
 */
export function providerKnown(
  provider: string,
  lists: readonly { service: ServiceConfig; slugs: readonly string[] | null }[],
): Fit {
  const read = lists.filter(
    (l): l is { service: ServiceConfig; slugs: readonly string[] } => l.slugs !== null,
  );
  if (read.length === 0 || read.some((l) => providerListed(provider, l.slugs))) return { fits: true };
  const names = read.map((l) => l.service.name).join(', ');
  const hint = providerHint(provider, [...new Set(read.flatMap((l) => l.slugs))]);
  return {
    fits: false,
    reason: `the router service ${names} does not list the provider in its GET /providers`,
    ...(hint ? { hint } : {}),
  };
}

/**
 * Whether a candidate belongs on a service, and if not, why — with the catalog's hint (the
 * closest ids), which matters only when the candidate fits nowhere (a typo).
 */
export type Fit = { fits: true } | { fits: false; reason: string; hint?: string };

/**
 * Whether a model id belongs to a service (the reason does not repeat the id: candidates
 * skipped for the same reason are listed together). Evidence first: a catalog that was read decides
 * (the id is listed, or it is not, with the closest ids). Without one, the id's shape does,
 * as the kind's adapter says it (`modelIds`): a routing service names its models
 * `author/model`, a direct service bare ids (`kimi-k2-0905-preview`, `gpt-4o`); a `~` alias
 * fits a kind that resolves aliases (`aliases`). Pure.
 */
export function modelFit(
  model: string,
  service: ServiceConfig,
  catalog: readonly CatalogModel[] | null,
): Fit {
  const adapter = adapterOf(service);
  // Aliases are a routing service's; a catalog need not list them for them to resolve.
  if (model.startsWith('~'))
    return adapter.aliases
      ? { fits: true }
      : { fits: false, reason: `${service.name} is ${adapter.noun}: ~aliases are a routing service's` };
  if (catalog) {
    if (catalog.some((m) => m.id === model)) return { fits: true };
    const hint = catalogHint(model, catalog);
    return {
      fits: false,
      reason: `the ${service.kind} service ${service.name} does not list the model in its GET /models`,
      ...(hint ? { hint } : {}),
    };
  }
  if (adapter.modelIds.fits(model)) return { fits: true };
  // Named by the first kind whose ids it is shaped like.
  const shape =
    Object.values(ADAPTERS).find((a) => a.modelIds.fits(model))?.modelIds.shape ?? 'an id of no kind';
  return {
    fits: false,
    reason: `the model is ${shape}, and ${service.name} is a ${service.kind} service (its GET /models could not be read, so the id's shape decided)`,
  };
}

/**
 * Whether a candidate runs a suite, and why not. With `--service` every selected suite is
 * sent to that service (what the user asked for: a router suite's prompts may be tried on a
 * direct model), and the candidate must fit that service. Without it a suite runs when the
 * candidate fits the suite's own service: a model that service has, a provider only on a
 * routing service (providers are a router's) that has an endpoint of the suite's model (when
 * its list was read: a provider without one would only answer the router's 503). Pure.
 */
function suiteFit(
  suite: Suite,
  candidate: Candidate,
  services: Config['services'],
  catalogs: Catalogs,
  override: string | undefined,
  endpoints: Endpoints,
): Fit {
  const service = services[override ?? suite.service];
  // An unconfigured service is not this check's to judge: the run names it (exit 2).
  if (!service) return { fits: true };
  if (candidate.provider && !adapterOf(service).routing)
    return {
      fits: false,
      reason: `providers are a routing service's, and ${suite.suite} runs on ${service.name}, ${adapterOf(service).noun}`,
    };
  if (candidate.model) {
    const fit = modelFit(candidate.model, service, catalogs.get(service.name) ?? null);
    if (!fit.fits) return fit;
  }
  if (candidate.provider) {
    // A provider that has no endpoint of the suite's model would only answer 503: it is skipped.
    const model = candidate.model ?? suite.model;
    const slugs = endpoints.get(endpointKey(service.name, model));
    if (slugs && !providerListed(candidate.provider, slugs))
      return {
        fits: false,
        reason: `${service.name} has no endpoint of ${model} by that provider (its GET /models/${model}/endpoints lists ${slugs.length ? slugs.join(', ') : 'none'})`,
      };
  }
  return { fits: true };
}

/**
 * The suites of a selection a candidate skips, each with why; or, when it fits none of
 * them, why not (a usage error: a candidate that runs nothing is never a pass). The
 * selection is the filtered one, before any shard: every shard of a candidate run skips
 * the same suites.
 */
export function candidateSkips(
  selection: readonly Suite[],
  candidate: Candidate,
  services: Config['services'],
  catalogs: Catalogs,
  override?: string,
  endpoints: Endpoints = new Map(),
): { skip: SkippedSuite[] } | { none: string[] } {
  const skip: SkippedSuite[] = [];
  const why = new Set<string>();
  for (const suite of selection) {
    const fit = suiteFit(suite, candidate, services, catalogs, override, endpoints);
    if (fit.fits) continue;
    skip.push({ suite: suite.suite, reason: fit.reason });
    why.add(fit.hint ? `${fit.reason}\n  → ${fit.hint}` : fit.reason);
  }
  if (selection.length > 0 && skip.length === selection.length) return { none: [...why] };
  return { skip };
}
