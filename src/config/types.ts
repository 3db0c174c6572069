import type { Prices } from '../core/catalog.js';
import type { TokenCapParam } from '../core/messages.js';
import type { ServiceKind } from '../adapters/index.js';

/** Service A (routing service) or Service B (direct model service) semantics: one per adapter. */
export type { ServiceKind };

export interface ServiceConfig {
  /** The key under `services:`; suites refer to it. */
  name: string;
  kind: ServiceKind;
  /** Ends in `/v1` (router: `…/api/v1`). `${ENV}` already expanded. */
  base_url: string;
  /** Name of the env variable holding the key; the key itself is never stored here. */
  api_key_env: string;
  /** Attribution headers (router); never used for authentication. */
  headers: Record<string, string>;
  /** The cap sent with a request whose params set neither max_tokens nor max_completion_tokens. */
  max_tokens: number;
  /** Under which name `max_tokens` is sent (absent: `max_tokens`); reasoning models on a direct service take `max_completion_tokens` only. */
  max_tokens_param?: TokenCapParam;
  /** What would break a regression baseline that this service may do anyway (`response_cache`: the router's cache header is sent). */
  allow?: ServiceAllowance[];
  timeout_s: number;
  /** Longest pause between two pieces of a streamed answer before it is a time-out (`stalled`); default COMMON_DEFAULTS'. */
  idle_timeout_s?: number;
  retries: number;
  concurrency: number;
  /** Model used by `verify` when no suite names one for this service. */
  verify_model?: string;
}

/** A hazard to a baseline a service's config entry may allow (`allow:`). */
export type ServiceAllowance = 'response_cache';

export interface Config {
  /** The file it was read from, or null for the built-in defaults. */
  file: string | null;
  services: Record<string, ServiceConfig>;
  /** `prices:` — USD per 1M tokens by concrete model id; used where a service reports no usage.cost. */
  prices?: Prices;
  /** `max_cost:` — the most a run may spend, in USD (`run --max-cost` overrides it). */
  max_cost?: number;
  /** `history: { dir }` — the nightly history folder, as written in the config (relative to the config file). */
  history?: { dir: string };
}
