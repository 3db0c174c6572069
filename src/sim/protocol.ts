import type { SimDirective } from '../types.js';

/**
 * How a client tells the embedded simulator what to do for one request. Only sent to
 * the simulator (run --sim, or a loopback base URL); a real service never sees it.
 */
export const SIM_DIRECTIVE_HEADER = 'x-driftcheck-sim';

/** Identifies the case a request belongs to, so the simulator can count sends per case. */
export const SIM_CASE_HEADER = 'x-driftcheck-case';

export function encodeSimDirective(directive: SimDirective): string {
  return JSON.stringify(directive);
}
