import type { RequestParams } from '../core/messages.js';
import type { Rule } from './rules.js';

/**
 * Which of the embedded simulator's two services imitates a kind under `--sim`: its base
 * URL, key shape, error bodies and model list.
 */
export type SimFlavour = 'router' | 'direct';

/** The seed's verification call (`verify`): fixed values, not the service's configured ones. */
export interface FirstRequest {
  max_tokens: number;
  timeout_s: number;
  retries: number;
}

/**
 * Everything driftcheck knows of one kind of service, in one place: a new kind is one
 * adapter in `ADAPTERS`, and until it answers every question below, the compiler lists each
 * gap. Nothing outside `src/adapters/` (and the simulator) asks which kind a service is:
 * it asks the adapter (`npm run lint` fails on a comparison with a kind's name elsewhere).
 */
export interface ServiceAdapter {
  /** How messages name this kind of service ("the routing service"). */
  title: string;
  /** How messages name one service of this kind, with its article ("a routing service"). */
  noun: string;
  /**
   * The config schema's words for the kind (schemas/config.schema.json, written by the build):
   * what it stands for ("Service A, a routing service such as OpenRouter") and its semantics.
   */
  schema: { is: string; semantics: string };
  /**
   * Defaults the config fills in: max_tokens follows the seed's verification calls (512 /
   * 1024). Without a config file there is one service of each kind with a `base_url` (a
   * `${VAR}` reference may stand for it), named after the kind; null: no such default service.
   */
  defaults: { max_tokens: number; base_url: string | null; api_key_env: string };
  /** What `driftcheck verify` sends: the seed's first request to this kind. */
  verify: FirstRequest;
  /** The key shape of this platform, and the other platform's key shape it must not be given. */
  keys: {
    owns: (key: string) => boolean;
    /** What a key of the other platform looks like, named for the pre-flight message; null when it looks fine. */
    foreign: (key: string) => string | null;
  };
  /**
   * Request parameters only this kind takes: sent to it as given, never to another kind.
   * Every other parameter passes through to every kind. Each is declared with its type in
   * the suite schema's `params` (test/adapters/adapters.test.ts holds them together).
   */
  params: readonly string[];
  /**
   * Whether it can answer from a response cache (the router's, opted into by a header): an
   * answer with every billable usage counter 0 is then flagged as possibly cached, one whose
   * `X-OpenRouter-Cache-Status` says HIT as cached.
   */
  responseCache: boolean;
  /**
   * What this kind adds to a request's parameters, given them as the suite wrote them
   * (the router: `provider.require_parameters` for a request with tools). Absent: nothing.
   */
  adjust?(params: Readonly<RequestParams>): RequestParams;
  /**
   * Whether this kind resolves `~author/family-latest` aliases (to the newest model of the
   * family: its model list names the target in `alias_target`, an answer in `model`). A
   * suite's alias is resolved, pinned and hinted with the first such service configured;
   * a candidate alias does not fit a service of a kind that does not.
   */
  aliases: boolean;
  /**
   * Provider routing: the paths (under the base URL) listing its providers (`data[].slug`)
   * and the providers with an endpoint of a model (`data.endpoints[].tag`; null for an id
   * that has no such list). Null for a kind that routes to no providers: then `--providers`
   * candidates and `pin --provider` do not apply to it.
   */
  routing: { providers: string; endpoints: (model: string) => string | null } | null;
  /** Its model list (`GET {base_url}/models`): whether the rows carry per-token prices (a cost cap reads them). */
  catalog: { prices: boolean };
  /**
   * The shape of its model ids, which decides whether a candidate model fits a service of
   * this kind when its model list cannot be read; `shape` names such an id in that message.
   */
  modelIds: { fits: (model: string) => boolean; shape: string };
  /** Classification rules for a non-2xx answer, in order (first match wins). */
  rules: readonly Rule[];
  /** Which of the simulator's services stands in for this kind under `--sim`. */
  simulator: SimFlavour;
}
