import type { ServiceConfig } from '../config/types.js';
import type { CompletionRequest } from './types.js';
import { type RequestParams, tokenCap } from '../core/messages.js';
import { ADAPTERS } from '../adapters/index.js';
import { isResponseCacheHeader } from '../adapters/response-cache.js';

/** Everything needed to send one chat-completion call; built once, sent on every attempt. */
export interface ChatHttpRequest {
  url: string;
  /** `url` parsed, once per service: what the exchange sends to. */
  target: URL;
  headers: Record<string, string>;
  body: string;
  /** The request asks for its answer as a stream (`stream: true`). */
  stream: boolean;
  /** The parameters as sent (the token cap among them): what the answer is read against. */
  params: RequestParams;
}

/**
 * Header names configured headers may never set: the ones that carry the key or frame
 * the request (the simulator's control headers and the response-cache opt-in: isReservedHeader).
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
 * driftcheck's own `x-driftcheck-…` (the simulator's controls), and the response-cache
 * opt-in unless the service allows it (`allow: [response_cache]`; the config refuses it
 * otherwise): a cache returns stored answers verbatim and would hide the drift we look for.
 */
function isReservedHeader(name: string, service: ServiceConfig): boolean {
  const lower = name.trim().toLowerCase();
  if (isResponseCacheHeader(lower)) return !service.allow?.includes('response_cache');
  return RESERVED_HEADERS.has(lower) || lower.startsWith('x-driftcheck-');
}

/** `${base_url}/chat/completions`, tolerating a trailing slash on the base. */
export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

/** Parameters some kind of service owns (an adapter's `params`): sent to that kind only. */
const KIND_PARAMS = new Set(Object.values(ADAPTERS).flatMap((adapter) => adapter.params));

/**
 * The request's parameters as one kind of service is sent them: as given, less undefined
 * values and those another kind owns — its adapter adds (adjust) or removes only its own —
 * and led by the token cap: the params' own (max_completion_tokens or max_tokens, never
 * both a default and one of them), else the config's default under the name it gives
 * (`max_tokens_param`).
 */
function sentParams(service: ServiceConfig, params: RequestParams): RequestParams {
  const adapter = ADAPTERS[service.kind];
  const own = adapter.params;
  const given = adapter.adjust ? adapter.adjust(params) : params;
  const cap = tokenCap(given) ?? {
    param: service.max_tokens_param ?? 'max_tokens',
    value: service.max_tokens,
  };
  // The cap first, where the default always stood: a body's bytes (and the simulator's seeded
  // coins over them) stay those of a request with the default max_tokens.
  const sent: RequestParams = { [cap.param]: cap.value };
  for (const [key, value] of Object.entries(given))
    if (value !== undefined && (!KIND_PARAMS.has(key) || own.includes(key))) sent[key] = value;
  return sent;
}

/**
 * Builds the URL, headers and body of each call to one service; sim headers only when the
 * caller adds them (talking to the simulator). What is the same for every call — the URL,
 * the configured and auth headers, and the parameters of each params object (a suite's
 * cases share one) as sent — is worked out once, not once per request.
 */
export function chatRequestBuilder(
  service: ServiceConfig,
  apiKey: string,
): (request: CompletionRequest, extraHeaders?: Record<string, string>) => ChatHttpRequest {
  const url = chatCompletionsUrl(service.base_url);
  const target = new URL(url);
  const fixed: Record<string, string> = {};
  for (const [name, value] of Object.entries(service.headers ?? {})) {
    if (!isReservedHeader(name, service)) fixed[name] = value;
  }
  // Set last, after attribution headers, so nothing configured can replace them.
  fixed.authorization = `Bearer ${apiKey}`;
  fixed['content-type'] = 'application/json';
  fixed.accept = 'application/json';
  // A streamed request accepts the event stream its answer comes as (an error still comes as JSON).
  const streamed = { ...fixed, accept: 'text/event-stream, application/json' };
  const sent = new WeakMap<RequestParams, RequestParams>();
  return (request, extraHeaders) => {
    let params = sent.get(request.params);
    if (!params) sent.set(request.params, (params = sentParams(service, request.params)));
    // The JSON body in the services' own shape: the model, the messages with every field
    // they have, and the parameters (the token cap first, defaulted from the config).
    const body = { model: request.model, messages: request.messages, ...params };
    const stream = params.stream === true;
    const base = stream ? streamed : fixed;
    return {
      url,
      target,
      // What the caller adds per request (the CLI: the simulator's directive headers, loopback only).
      headers: extraHeaders ? { ...base, ...extraHeaders } : base,
      body: JSON.stringify(body),
      stream,
      params,
    };
  };
}

/** Builds URL, headers and body for one call; sim headers only when talking to the simulator. */
export function buildChatRequest(
  service: ServiceConfig,
  request: CompletionRequest,
  apiKey: string,
  options: { extraHeaders?: Record<string, string> } = {},
): ChatHttpRequest {
  return chatRequestBuilder(service, apiKey)(request, options.extraHeaders);
}
