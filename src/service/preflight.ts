import { unsetEnv } from '../config/env.js';
import { PreflightError } from '../util/errors.js';
import { ADAPTERS } from '../adapters/index.js';
import type { ServiceConfig } from '../config/types.js';
import { isLoopbackHost } from '../util/loopback.js';

/** Checks the base URL before any key is attached to it; throws PreflightError. */
export function checkBaseUrl(service: ServiceConfig): URL {
  const raw = service.base_url?.trim() ?? '';
  if (raw === '' || raw.includes('${')) {
    const unset = unsetEnv(service);
    const why = unset.length
      ? `: the environment variable ${unset.join(', ')} it refers to is not set; export ${unset.length > 1 ? 'them' : 'it'}, or use --sim`
      : `${raw === '' ? '' : ` (still "${raw}": its environment variable is unset)`}; set base_url in the config, or the environment variable it refers to`;
    throw new PreflightError(`service "${service.name}" has no base_url${why}`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch (cause) {
    throw new PreflightError(`service "${service.name}": base_url "${raw}" is not a valid URL`, { cause });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new PreflightError(`service "${service.name}": base_url must be https:// (got ${url.protocol})`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new PreflightError(
      `service "${service.name}": base_url uses plain http:// to ${url.hostname}; the key would travel ` +
        'unencrypted. Use https:// (plain http is only allowed for loopback hosts)',
    );
  }
  if (url.username || url.password) {
    throw new PreflightError(`service "${service.name}": base_url must not carry credentials`);
  }
  return url;
}

/**
 * Reads and checks a service's key before anything is sent: env value set, base URL
 * safe, key not shaped like the other platform's. Messages never contain the key.
 */
export function resolveApiKey(service: ServiceConfig, env: NodeJS.ProcessEnv): string {
  const url = checkBaseUrl(service);
  const envName = service.api_key_env?.trim() ?? '';
  if (envName === '') {
    throw new PreflightError(
      `service "${service.name}" names no api_key_env; set it to the variable holding the key`,
    );
  }
  // Keys pasted from files often carry a trailing newline; that is not part of the key.
  const key = (env[envName] ?? '').trim();
  if (key === '') {
    throw new PreflightError(
      `environment variable ${envName} is ${env[envName] === undefined ? 'not set' : 'empty'} ` +
        `(API key for service "${service.name}"); export it, or use --sim to run without keys`,
    );
  }
  if (/\s/.test(key)) {
    throw new PreflightError(
      `environment variable ${envName} contains whitespace inside the key; check its value`,
    );
  }
  const otherShape = ADAPTERS[service.kind].keys.foreign(key);
  if (otherShape) {
    // Seed §7: a key for the other platform fails authentication; check key and address together.
    throw new PreflightError(
      `environment variable ${envName} holds ${otherShape}, but service "${service.name}" is kind ` +
        `"${service.kind}" at ${url.origin}; check the key and the base address together`,
    );
  }
  return key;
}
