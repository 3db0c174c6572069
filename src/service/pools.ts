import { type Dispatcher, Pool } from 'undici';

interface SharedPool {
  pool: Pool;
  users: number;
}

/** One keep-alive pool per origin, shared by every client talking to it. */
const pools = new Map<string, SharedPool>();

/** A pool lease; `release` closes the pool once its last user is done. */
export interface PoolLease {
  dispatcher: Dispatcher;
  release(): Promise<void>;
}

/** Borrows the shared pool for an origin (`https://host:port`), creating it on first use. */
export function acquirePool(origin: string): PoolLease {
  let shared = pools.get(origin);
  if (!shared) {
    shared = {
      pool: new Pool(origin, {
        keepAliveTimeout: 10_000,
        // Our own AbortSignal enforces timeout_s over headers and body; undici's 300 s
        // defaults would otherwise cut a longer configured time-out short.
        headersTimeout: 0,
        bodyTimeout: 0,
      }),
      users: 0,
    };
    pools.set(origin, shared);
  }
  shared.users += 1;
  const entry = shared;
  let released = false;
  return {
    dispatcher: entry.pool,
    async release() {
      if (released) return;
      released = true;
      entry.users -= 1;
      if (entry.users > 0 || pools.get(origin) !== entry) return;
      pools.delete(origin);
      await entry.pool.close();
    },
  };
}

/**
 * Ends every shared pool (end of a run, or a test's afterAll) so the process can exit.
 * Destroys rather than closes: whatever is still in flight then (an interrupted run's
 * requests) is abandoned, not waited for.
 */
export async function closeAllPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((entry) => entry.pool.destroy()));
}
