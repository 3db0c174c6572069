import type { CompletionRequest, ServiceConfig, ServiceKind } from '../types.js';
import { ADAPTERS } from './adapters/index.js';

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
]);

/**
 * True for a configured header name that must not be sent (case-insensitive): those above,
 * the response-cache opt-in, and driftcheck's own `x-driftcheck-…` (the simulator's controls).
 */
export function isReservedHeader(name: string): boolean {
  const lower = name.trim().toLowerCase();
  return (
    RESERVED_HEADERS.has(lower) || lower.startsWith('x-openrouter-cache') || lower.startsWith('x-driftcheck-')
  );
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
  // What else this kind of service documents (reasoning_effort, provider preferences): its adapter says.
  return { ...body, ...ADAPTERS[kind].requestParams(params) };
}

/** Builds URL, headers and body for one call; sim headers only when talking to the simulator. */
export function buildChatRequest(
  service: ServiceConfig,
  request: CompletionRequest,
  apiKey: string,
  options: { extraHeaders?: Record<string, string> } = {},
): ChatHttpRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(service.headers ?? {})) {
    if (!isReservedHeader(name)) headers[name] = value;
  }
  // Set last, after attribution headers, so nothing configured can replace them.
  headers.authorization = `Bearer ${apiKey}`;
  headers['content-type'] = 'application/json';
  headers.accept = 'application/json';
  // What the caller adds per request (the CLI: the simulator's directive headers, loopback only).
  Object.assign(headers, options.extraHeaders);
  return {
    url: chatCompletionsUrl(service.base_url),
    headers,
    body: JSON.stringify(buildChatBody(service.kind, request, service.max_tokens)),
  };
}
