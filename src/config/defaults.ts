import type { Config } from '../types.js';
import { buildService } from './build.js';

/**
 * The config used when no `driftcheck.config.yaml` exists: a `router` service at
 * OpenRouter and a `direct` service whose base URL comes from DIRECT_BASE_URL ('' and
 * listed by unsetEnv() when that is unset).
 */
export function defaultConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    file: null,
    services: {
      router: buildService(
        'router',
        { kind: 'router', base_url: 'https://openrouter.ai/api/v1', api_key_env: 'OPENROUTER_API_KEY' },
        env,
      ),
      direct: buildService(
        'direct',
        // A config-style reference (not a JS template), expanded by buildService.
        { kind: 'direct', base_url: '${DIRECT_BASE_URL}', api_key_env: 'DIRECT_API_KEY' },
        env,
      ),
    },
  };
}
