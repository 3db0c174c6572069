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

/** Parameters some kind of service owns (an adapter's `params`): sent to that kind only. */
const KIND_PARAMS = new Set(Object.values(ADAPTERS).flatMap((adapter) => adapter.params));

/**
 * The JSON body in the services' own shape: the model, the messages with every field they
 * have, and the request's parameters as given (max_tokens defaulted from the config), less
 * those another kind of service owns — its adapter adds (adjust) or removes only its own.
 */
export function buildChatBody(
  kind: ServiceKind,
  request: CompletionRequest,
  defaultMaxTokens: number,
): Record<string, unknown> {
  const adapter = ADAPTERS[kind];
  const own = adapter.params;
  const given = adapter.adjust ? adapter.adjust(request.params) : request.params;
  const params = Object.entries(given).filter(
    ([key, value]) => value !== undefined && (!KIND_PARAMS.has(key) || own.includes(key)),
  );
  return {
    model: request.model,
    messages: request.messages.map((m) => ({ ...m })),
    max_tokens: defaultMaxTokens,
    ...Object.fromEntries(params),
  };
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
