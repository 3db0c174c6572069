import { request } from 'undici';
import type { ServiceConfig } from '../types.js';
import { readCappedBody, parseJson } from './body.js';

/** One row of the router's `GET /models`: a `~` alias row names its current concrete target. */
export interface CatalogModel {
  id: string;
  alias_target: string | null;
}

/**
 * Reads the router's model catalog (`GET {base_url}/models`). Returns null when the
 * catalog cannot be read, so the caller can fall back to asking with one minimal call.
 */
export async function fetchModelCatalog(
  service: ServiceConfig,
  apiKey: string | null,
): Promise<CatalogModel[] | null> {
  try {
    const response = await request(`${service.base_url.replace(/\/+$/, '')}/models`, {
      method: 'GET',
      headers: { accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      // undici's request() follows no redirect: the key never goes to another host.
      signal: AbortSignal.timeout(service.timeout_s * 1000),
    });
    const read = await readCappedBody(response.body, 32 * 1024 * 1024, null);
    if (response.statusCode !== 200 || read.status !== 'ok') return null;
    const data = (parseJson(read.text) as { data?: unknown } | undefined)?.data;
    if (!Array.isArray(data)) return null;
    return data.flatMap((row: { id?: unknown; alias_target?: { slug?: unknown } | null }) =>
      typeof row?.id === 'string'
        ? [
            {
              id: row.id,
              alias_target: typeof row.alias_target?.slug === 'string' ? row.alias_target.slug : null,
            },
          ]
        : [],
    );
  } catch {
    return null;
  }
}
