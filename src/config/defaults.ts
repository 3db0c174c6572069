import { ADAPTERS, serviceKinds } from '../adapters/index.js';
import type { Config } from './types.js';
import { buildService } from './build.js';

/**
 * The config used when no `driftcheck.config.yaml` exists: a `router` service at
 * OpenRouter and a `direct` service whose base URL comes from DIRECT_BASE_URL ('' and
 * listed by unsetEnv() when that is unset).
 */
export function defaultConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // One service per kind that has a default address, named after it, from its adapter's
  // defaults (the direct base URL is a config-style `${DIRECT_BASE_URL}` reference, expanded
  // by buildService). A kind without one (base_url null) is used only where a config names it.
  const services = Object.fromEntries(
    serviceKinds().flatMap((kind) => {
      const { base_url, api_key_env } = ADAPTERS[kind].defaults;
      return base_url === null ? [] : [[kind, buildService(kind, { kind, base_url, api_key_env }, env)]];
    }),
  );
  return { file: null, services };
}
