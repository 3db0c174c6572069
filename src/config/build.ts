import type { ServiceAllowance, ServiceKind } from './types.js';
import type { TokenCapParam } from '../core/messages.js';
import { expandEnv, type ParsedServiceConfig } from './env.js';
import { ADAPTERS } from '../adapters/index.js';
import { COMMON_DEFAULTS } from './service-defaults.js';

/** One service entry as written in the config file, after schema validation. */
export interface RawService {
  kind: ServiceKind;
  base_url: string;
  api_key_env: string;
  headers?: Record<string, string>;
  max_tokens?: number;
  max_tokens_param?: TokenCapParam;
  allow?: ServiceAllowance[];
  timeout_s?: number;
  idle_timeout_s?: number;
  retries?: number;
  concurrency?: number;
  verify_model?: string;
}

/**
 * Fills defaults and expands `${VAR}` references. A base_url naming an unset variable
 * becomes '' rather than a half-built URL; trailing slashes are dropped so clients can
 * append `/chat/completions`.
 */
export function buildService(name: string, raw: RawService, env: NodeJS.ProcessEnv): ParsedServiceConfig {
  const base = expandEnv(raw.base_url, env);
  const unset = [...base.missing];
  const headers: Record<string, string> = {};
  for (const [header, template] of Object.entries(raw.headers ?? {})) {
    const expanded = expandEnv(template, env);
    // Attribution headers are optional; one with a hole in it is left out, not sent half-empty.
    if (expanded.missing.length > 0) unset.push(...expanded.missing.filter((v) => !unset.includes(v)));
    else headers[header] = expanded.value;
  }
  return {
    name,
    kind: raw.kind,
    base_url: base.missing.length > 0 ? '' : base.value.replace(/\/+$/, ''),
    api_key_env: raw.api_key_env,
    headers,
    max_tokens: raw.max_tokens ?? ADAPTERS[raw.kind].defaults.max_tokens,
    ...(raw.max_tokens_param !== undefined ? { max_tokens_param: raw.max_tokens_param } : {}),
    ...(raw.allow?.length ? { allow: raw.allow } : {}),
    timeout_s: raw.timeout_s ?? COMMON_DEFAULTS.timeout_s,
    ...(raw.idle_timeout_s !== undefined ? { idle_timeout_s: raw.idle_timeout_s } : {}),
    retries: raw.retries ?? COMMON_DEFAULTS.retries,
    concurrency: raw.concurrency ?? COMMON_DEFAULTS.concurrency,
    ...(raw.verify_model !== undefined ? { verify_model: raw.verify_model } : {}),
    ...(unset.length > 0 ? { unset_env: unset } : {}),
  };
}
