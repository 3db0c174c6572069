import { createRequire } from 'node:module';
import type { Dispatcher, Pool as UndiciPool } from 'undici';

// undici's package index loads every feature it has (fetch, WebSocket, cookies, caches,
// mocks, proxies): about 150 ms of every run's start-up on a 2-core machine. A run needs
// the connection pool and the request API only, about 55 ms. These are undici's own
// modules (its package has no export map), the same ones its index re-exports; undici is
// pinned to an exact version for that reason, and test/service/undici-lite.test.ts checks
// they are the classes the index hands out.
const require = createRequire(import.meta.url);

export const Pool = require('undici/lib/dispatcher/pool.js') as typeof UndiciPool;

const requestApi = require('undici/lib/api/api-request.js') as (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;

const targets = new Map<string, { origin: string; path: string }>();

/** `dispatcher.request()` for an absolute URL; the URL is parsed once per distinct URL. */
export function sendRequest(
  dispatcher: Dispatcher,
  url: string,
  options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>,
): Promise<Dispatcher.ResponseData> {
  let target = targets.get(url);
  if (!target) {
    const parsed = new URL(url);
    target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
    if (targets.size < 64) targets.set(url, target);
  }
  return requestApi.call(dispatcher, { ...options, origin: target.origin, path: target.path });
}
