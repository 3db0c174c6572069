import { encodeSimDirective, SIM_CASE_HEADER, SIM_DIRECTIVE_HEADER } from '../sim/protocol.js';
import type { CompletionRequest, ServiceConfig, ServiceKind } from '../types.js';

/** Everything needed to send one chat-completion call; built once, sent on every attempt. */
export interface ChatHttpRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Header names configured headers may never set: the ones that carry the key or frame
 * the request, the simulator's control headers, and the response-cache opt-in (a cache
 * returns stored answers verbatim and would hide exactly the drift we look for).
 */
const RESERVED_HEADERS = new Set([
  'authorization',
  'content-type',
  'accept',
  'content-length',
  'host',
  'connection',
  'transfer-encoding',
  SIM_DIRECTIVE_HEADER,
  SIM_CASE_HEADER,
]);

/** True for a configured header name that must not be sent (case-insensitive). */
export function isReservedHeader(name: string): boolean {
  const lower = name.trim().toLowerCase();
  return RESERVED_HEADERS.has(lower) || lower.startsWith('x-openrouter-cache');
}

/** `${base_url}/chat/completions`, tolerating a trailing slash on the base. */
export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

/** The JSON body: the seed's minimal fields plus the sampling params a suite set. */
export function buildChatBody(
  kind: ServiceKind,
  request: CompletionRequest,
  defaultMaxTokens: number,
): Record<string, unknown> {
  const { params } = request;
  const body: Record<string, unknown> = {
    model: request.model,
    messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
    max_tokens: params.max_tokens ?? defaultMaxTokens,
  };
  if (typeof params.temperature === 'number') body.temperature = params.temperature;
  if (typeof params.top_p === 'number') body.top_p = params.top_p;
  if (typeof params.seed === 'number') body.seed = params.seed;
  // Only Service B documents reasoning_effort; the router would remap or reject it.
  if (kind === 'direct' && typeof params.reasoning_effort === 'string') {
    body.reasoning_effort = params.reasoning_effort;
  }
  // The router's documented provider preferences (provider-selection guide), sent as given:
  // a suite pins the provider as it pins the model. A direct service has no providers.
  if (kind === 'router' && params.provider) body.provider = params.provider;
  return body;
}

/** Builds URL, headers and body for one call; sim headers only when talking to the simulator. */
export function buildChatRequest(
  service: ServiceConfig,
  request: CompletionRequest,
  apiKey: string,
  options: { simDirectives?: boolean } = {},
): ChatHttpRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(service.headers ?? {})) {
    if (!isReservedHeader(name)) headers[name] = value;
  }
  // Set last, after attribution headers, so nothing configured can replace them.
  headers.authorization = `Bearer ${apiKey}`;
  headers['content-type'] = 'application/json';
  headers.accept = 'application/json';
  if (options.simDirectives) {
    if (request.sim) headers[SIM_DIRECTIVE_HEADER] = asciiOnly(encodeSimDirective(request.sim));
    if (request.case_key) headers[SIM_CASE_HEADER] = percentEncodeNonAscii(request.case_key);
  }
  return {
    url: chatCompletionsUrl(service.base_url),
    headers,
    body: JSON.stringify(buildChatBody(service.kind, request, service.max_tokens)),
  };
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
