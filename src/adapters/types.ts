import type { RequestParams } from '../core/messages.js';
import type { Rule } from './rules.js';

/**
 * Everything driftcheck knows of one kind of service, in one place: a new kind is one
 * adapter in `ADAPTERS`, and until it has one, the compiler lists every gap.
 */
export interface ServiceAdapter {
  /** How messages name this kind of service ("the routing service"). */
  title: string;
  /** Defaults the config fills in: max_tokens follows the seed's verification calls (512 / 1024). */
  defaults: { max_tokens: number; base_url: string | null; api_key_env: string };
  /** The key shape of this platform, and the other platform's key shape it must not be given. */
  keys: {
    owns: (key: string) => boolean;
    /** What a key of the other platform looks like, named for the pre-flight message; null when it looks fine. */
    foreign: (key: string) => string | null;
  };
  /**
   * Request parameters only this kind takes: sent to it as given, never to another kind.
   * Every other parameter passes through to every kind.
   */
  params: readonly string[];
  /**
   * What this kind adds to a request's parameters, given them as the suite wrote them
   * (the router: `provider.require_parameters` for a request with tools). Absent: nothing.
   */
  adjust?(params: Readonly<RequestParams>): RequestParams;
  /** Classification rules for a non-2xx answer, in order (first match wins). */
  rules: readonly Rule[];
}
