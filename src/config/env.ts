import type { ServiceConfig } from './types.js';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces each `${NAME}` with its value from `env`. Names that are unset or empty are
 * returned in `missing` (and replaced by nothing) so the caller decides what that means.
 */
export function expandEnv(template: string, env: NodeJS.ProcessEnv): { value: string; missing: string[] } {
  const missing: string[] = [];
  const value = template.replace(REFERENCE, (_, name: string) => {
    const found = env[name];
    if (found === undefined || found === '') {
      if (!missing.includes(name)) missing.push(name);
      return '';
    }
    return found;
  });
  return { value, missing };
}

/** A service as parsed from a file, remembering `${VAR}` references that were unset. */
export type ParsedServiceConfig = ServiceConfig & {
  /**
   * Env variables a `${VAR}` in base_url or a header value named but that were unset.
   * Present only when non-empty. A base_url with one is left '' (pre-flight refuses it
   * at use time, naming the variable); a header with one is dropped.
   */
  unset_env?: string[];
};

/** The env variables a service's config referred to but that were unset — for pre-flight messages. */
export function unsetEnv(service: ServiceConfig): string[] {
  return [...((service as ParsedServiceConfig).unset_env ?? [])];
}
