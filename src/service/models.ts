import { type CatalogModel } from '../core/catalog.js';
import { adapterOf } from '../adapters/index.js';
import type { ServiceConfig } from '../config/types.js';
import { parseJson } from './body.js';
import { acquirePool } from './pools.js';
import { exchange } from './exchange.js';
import { createRedactor } from './redact.js';

/** A catalog is large (hundreds of models) but not this large. */
const MAX_CATALOG_BYTES = 32 * 1024 * 1024;

/**
 * Reads a service's model list (`GET {base_url}/models`: the router's catalog, with prices
 * and alias targets). Returns null when it cannot be read, so the caller can fall back to
 * asking with one minimal call, or to the id's shape.
 */
export async function fetchModelCatalog(
  service: ServiceConfig,
  apiKey: string | null,
): Promise<CatalogModel[] | null> {
  const data = ((await getJson(service, apiKey, '/models')) as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return null;
  return data.flatMap((row: CatalogRow) => {
    if (typeof row?.id !== 'string') return [];
    const pricing = pricingOf(row.pricing);
    return [
      {
        id: row.id,
        alias_target: typeof row.alias_target?.slug === 'string' ? row.alias_target.slug : null,
        ...(pricing ? { pricing } : {}),
      },
    ];
  });
}

/**
 * A routing service's providers by slug (`GET {base_url}/providers`: `data[].slug`, the path
 * its adapter's `routing` names), or null when the list cannot be read (a kind that routes
 * to no providers, a proxy without it).
 */
export async function fetchProviders(
  service: ServiceConfig,
  apiKey: string | null,
): Promise<string[] | null> {
  const path = adapterOf(service).routing?.providers;
  if (!path) return null;
  const data = ((await getJson(service, apiKey, path)) as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return null;
  return data.flatMap((row: { slug?: unknown } | null) => (typeof row?.slug === 'string' ? [row.slug] : []));
}

/**
 * The providers serving one model on a routing service, by slug: each endpoint's `tag` of
 * the list its adapter's `routing` names (the router's `GET {base_url}/models/{author}/{slug}/endpoints`,
 * `data.endpoints[]`; a tag may name a variant, `deepinfra/fp8`). Null when the list cannot
 * be read, the kind routes to no providers, or the id has no such list (not `author/slug`).
 */
export async function fetchModelEndpoints(
  service: ServiceConfig,
  apiKey: string | null,
  model: string,
): Promise<string[] | null> {
  const path = adapterOf(service).routing?.endpoints(model);
  if (!path) return null;
  const body = (await getJson(service, apiKey, path)) as { data?: { endpoints?: unknown } } | null;
  const endpoints = body?.data?.endpoints;
  if (!Array.isArray(endpoints)) return null;
  return endpoints.flatMap((e: { tag?: unknown } | null) => (typeof e?.tag === 'string' ? [e.tag] : []));
}

/**
 * One GET of a list beside the chat-completion endpoint, its JSON body, or null when it
 * does not answer 200 with JSON. The run's own exchange: the same body cap, whole-exchange
 * time-out, and no redirects (the key never goes to another host); an echoed key is
 * redacted before the body is read (model ids are written into suite files by `pin`).
 */
async function getJson(service: ServiceConfig, apiKey: string | null, path: string): Promise<unknown> {
  const url = `${service.base_url.replace(/\/+$/, '')}${path}`;
  let lease: ReturnType<typeof acquirePool> | null = null;
  try {
    lease = acquirePool(new URL(url).origin);
    const response = await exchange(lease.dispatcher, url, {
      method: 'GET',
      headers: { accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      timeoutMs: service.timeout_s * 1000,
      maxBodyBytes: MAX_CATALOG_BYTES,
      redactor: createRedactor(apiKey ? [apiKey] : []),
    });
    if (response.statusCode !== 200 || response.body === undefined) return null;
    return parseJson(response.body) ?? null;
  } catch {
    return null;
  } finally {
    await lease?.release();
  }
}

interface CatalogRow {
  id?: unknown;
  alias_target?: { slug?: unknown } | null;
  pricing?: { prompt?: unknown; completion?: unknown } | null;
}

/**
 * A row's per-token prices: decimal strings in the router's list ("0.00000015"). A price
 * that is not a number of zero or more (the router lists "-1" for a model priced by what
 * it routes to) is no price at all.
 */
function pricingOf(pricing: CatalogRow['pricing']): { prompt: number; completion: number } | null {
  const read = (value: unknown): number | null => {
    const n =
      typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : typeof value === 'number'
          ? value
          : NaN;
    return Number.isFinite(n) && n >= 0 ? n : null;
  };
  const prompt = read(pricing?.prompt);
  const completion = read(pricing?.completion);
  return prompt === null || completion === null ? null : { prompt, completion };
}
