import type { ServiceConfig } from '../config/types.js';
import type { SimDirective } from '../suite/types.js';
import type { CompletionRequest } from '../service/types.js';
import { isLoopbackUrl } from '../util/loopback.js';

/**
 * How a client tells the embedded simulator what to do for one request. Only sent to
 * the simulator (run --sim, or a loopback base URL); a real service never sees it.
 */
export const SIM_DIRECTIVE_HEADER = 'x-driftcheck-sim';

/** Identifies the case a request belongs to, so the simulator can count sends per case. */
export const SIM_CASE_HEADER = 'x-driftcheck-case';

function encodeSimDirective(directive: SimDirective): string {
  return JSON.stringify(directive);
}

/** Whether a base URL is loopback, per URL: asked once per service, not once per request. */
const LOOPBACK = new Map<string, boolean>();

/**
 * The headers that carry a request's simulator directive and case key. The CLI hands this
 * to the service clients (which know nothing of the simulator) for loopback base URLs only:
 * directives never reach a real service.
 */
export function simRequestHeaders(
  service: ServiceConfig,
  request: CompletionRequest,
): Record<string, string> {
  let loopback = LOOPBACK.get(service.base_url);
  if (loopback === undefined) LOOPBACK.set(service.base_url, (loopback = isLoopbackUrl(service.base_url)));
  if (!loopback) return {};
  const headers: Record<string, string> = {};
  if (request.sim) headers[SIM_DIRECTIVE_HEADER] = asciiOnly(encodeSimDirective(request.sim));
  if (request.case_key) headers[SIM_CASE_HEADER] = percentEncodeNonAscii(request.case_key);
  return headers;
}

/**
 * Header values must be Latin-1 and HTTP clients reject most of it anyway; JSON can
 * carry any character as a \uXXXX escape, so a directive with a reply like "café 🙂"
 * still travels and JSON.parse on the other side restores it.
 */
function asciiOnly(json: string): string {
  return json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Case ids are free text; keep the header valid while mapping each id to one stable value. */
function percentEncodeNonAscii(text: string): string {
  return text.replace(/[^\x20-\x7e]/gu, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return '%3F'; // lone surrogate: cannot be encoded, and cannot be a real id either
    }
  });
}
