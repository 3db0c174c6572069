import type { SimFlavour } from '../adapters/index.js';
import type { ChatMessage, SentCall } from './answer.js';
import { directBadRequest } from './errors-direct.js';
import { routerBadRequest } from './errors-router.js';
import type { SimReply } from './reply.js';
import type { RoutingPreferences } from './routing.js';
import { readToolRequest, type ToolRequest } from './tool-request.js';

export interface ParsedRequest {
  model: string;
  messages: ChatMessage[];
  maxTokens: number | null;
  /** Which name the cap came under (`max_completion_tokens` wins when both are given); null: none. */
  capParam: 'max_tokens' | 'max_completion_tokens' | null;
  /** `stream: true`: answer as server-sent events. */
  stream: boolean;
  /** The request's temperature, when given (0–2): a direct reasoning model takes only 1. */
  temperature: number | null;
  /** `stream_options.include_usage: true`: the direct service's stream ends with a usage chunk (the router's always does). */
  includeUsage: boolean;
  /**
   * The body as the seeded coins see it: without `stream` and `stream_options`, so a request
   * streamed or not draws the same coins (and gets the same answer).
   */
  identity: string;
  /** Router: the request's `provider` preferences, when given. */
  provider?: RoutingPreferences;
  /** Tools, tool_choice, parallel_tool_calls and response_format, validated. */
  tools: ToolRequest;
}

export type RequestRead = { ok: true; request: ParsedRequest } | { ok: false; reply: SimReply };

/** OpenAI's ReasoningEffort values (openai-openapi). */
const REASONING_EFFORTS = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);
/** The router's reasoning efforts (its reasoning-tokens guide). */
const ROUTER_EFFORTS = new Set(['xhigh', 'high', 'medium', 'low', 'minimal', 'none']);
const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

/**
 * One message as the real APIs accept it: content a string or a list of parts (the text
 * parts are what the simulated model reads), an assistant message with `content: null` and
 * `tool_calls`, a `tool` message answering one. Returns the problem as text when invalid.
 */
function readMessage(m: unknown): ChatMessage | string {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return 'must be an object';
  const msg = m as Record<string, unknown>;
  if (typeof msg.role !== 'string' || !ROLES.has(msg.role))
    return `\`role\` must be one of ${[...ROLES].join(', ')}`;
  const read = readContent(msg, msg.role);
  if (typeof read === 'string') return read;
  // What a tool loop sends back: an assistant turn's calls and reasoning, the call a result answers.
  if (msg.role === 'assistant' && Array.isArray(msg.tool_calls)) read.toolCalls = sentCalls(msg.tool_calls);
  if (msg.role === 'assistant' && msg.reasoning_details != null)
    read.reasoningDetails = msg.reasoning_details;
  if (msg.role === 'tool' && typeof msg.tool_call_id === 'string') read.toolCallId = msg.tool_call_id;
  return read;
}

/** The calls of an assistant turn as sent back; one that is not a function call is left out. */
function sentCalls(calls: unknown[]): SentCall[] {
  const out: SentCall[] = [];
  for (const c of calls) {
    if (typeof c !== 'object' || c === null) continue;
    const { id, function: fn } = c as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    if (typeof fn?.name !== 'string') continue;
    out.push({
      id: typeof id === 'string' ? id : '',
      name: fn.name,
      arguments: typeof fn.arguments === 'string' ? fn.arguments : '',
    });
  }
  return out;
}

function readContent(msg: Record<string, unknown>, role: string): ChatMessage | string {
  const { content } = msg;
  if (typeof content === 'string') return { role, content };
  if (Array.isArray(content)) {
    const parts = content as unknown[];
    if (
      !parts.every(
        (p) => typeof p === 'object' && p !== null && typeof (p as { type?: unknown }).type === 'string',
      )
    )
      return '`content` parts must be objects with a `type`';
    const text = parts
      .map((p) =>
        (p as { type: string; text?: unknown }).type === 'text'
          ? String((p as { text?: unknown }).text ?? '')
          : '',
      )
      .join('');
    return { role, content: text };
  }
  if (content === null && role === 'assistant' && Array.isArray(msg.tool_calls) && msg.tool_calls.length > 0)
    return { role, content: '' };
  return '`content` must be a string or a list of content parts';
}

/** Reads and validates a chat-completion body; a bad one gets that platform's 400. */
export function readCompletionRequest(kind: SimFlavour, raw: string): RequestRead {
  const fail = (message: string, param: string | null): RequestRead => ({
    ok: false,
    reply: kind === 'router' ? routerBadRequest(message) : directBadRequest(message, param),
  });
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return fail('The request body is not valid JSON.', null);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return fail('The request body must be a JSON object.', null);
  }
  const b = body as Record<string, unknown>;
  if (typeof b.model !== 'string' || b.model.trim() === '')
    return fail('`model` must be a non-empty string.', 'model');
  if (!Array.isArray(b.messages) || b.messages.length === 0) {
    return fail('`messages` must be a non-empty array.', 'messages');
  }
  const messages: ChatMessage[] = [];
  for (const [i, m] of b.messages.entries()) {
    const read = readMessage(m);
    if (typeof read === 'string') return fail(`messages[${i}]: ${read}`, `messages[${i}]`);
    messages.push(read);
  }
  // `max_completion_tokens` is OpenAI's current name for the cap; `max_tokens` the older one.
  const cap = b.max_completion_tokens ?? b.max_tokens;
  const capName = b.max_completion_tokens != null ? 'max_completion_tokens' : 'max_tokens';
  if (cap != null && !(typeof cap === 'number' && Number.isInteger(cap) && cap > 0)) {
    return fail(`\`${capName}\` must be a positive integer.`, capName);
  }
  const maxTokens = cap;
  if (b.stream != null && typeof b.stream !== 'boolean') return fail('`stream` must be a boolean.', 'stream');
  if (
    b.temperature != null &&
    !(typeof b.temperature === 'number' && b.temperature >= 0 && b.temperature <= 2)
  )
    return fail('`temperature` must be a number from 0 to 2.', 'temperature');
  const streamOptions = readStreamOptions(kind, b);
  if (typeof streamOptions === 'string') return fail(streamOptions, 'stream_options');
  if (b.reasoning_effort != null) {
    if (typeof b.reasoning_effort !== 'string')
      return fail('`reasoning_effort` must be a string.', 'reasoning_effort');
    // The direct service rejects what OpenAI's ReasoningEffort enum does not list; the router's
    // documented ~latest compatibility remaps rather than rejects, and passes others to the provider.
    if (kind === 'direct' && !REASONING_EFFORTS.has(b.reasoning_effort)) {
      return fail(
        `Invalid value: '${b.reasoning_effort}'. Supported values are: ${[...REASONING_EFFORTS].map((v) => `'${v}'`).join(', ')}.`,
        'reasoning_effort',
      );
    }
  }
  // The router's reasoning object: effort or a max_tokens budget, not both (reasoning-tokens guide).
  if (kind === 'router' && b.reasoning != null) {
    const problem = reasoningProblem(b.reasoning);
    if (problem !== null) return fail(problem, 'reasoning');
  }
  let provider: RoutingPreferences | undefined;
  if (kind === 'router' && b.provider != null) {
    const read = readPreferences(b.provider);
    if (typeof read === 'string') return fail(`provider: ${read}`, 'provider');
    provider = read;
  }
  const tools = readToolRequest(b);
  if ('message' in tools) return fail(tools.message, tools.param);
  return {
    ok: true,
    request: {
      model: b.model,
      messages,
      maxTokens: (maxTokens as number | null | undefined) ?? null,
      capParam: cap == null ? null : capName,
      stream: b.stream === true,
      temperature: (b.temperature as number | null | undefined) ?? null,
      includeUsage: streamOptions,
      identity: coinIdentity(b),
      ...(provider ? { provider } : {}),
      tools,
    },
  };
}

/**
 * `stream_options` (OpenAI's ChatCompletionStreamOptions): an object whose `include_usage`
 * is a boolean; the direct service refuses it on a request that does not stream, as OpenAI
 * does. The router accepts it and always sends usage anyway. Returns include_usage.
 */
function readStreamOptions(kind: SimFlavour, b: Record<string, unknown>): boolean | string {
  const options = b.stream_options;
  if (options == null) return false;
  if (typeof options !== 'object' || Array.isArray(options)) return '`stream_options` must be an object.';
  const include = (options as Record<string, unknown>).include_usage;
  if (include != null && typeof include !== 'boolean')
    return '`stream_options.include_usage` must be a boolean.';
  if (kind === 'direct' && b.stream !== true)
    return "The 'stream_options' parameter is only allowed when 'stream' is enabled.";
  return include === true;
}

/** What is wrong with the router's `reasoning` object, or null: its effort's values, a budget, and not both. */
function reasoningProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return '`reasoning` must be an object.';
  const r = value as Record<string, unknown>;
  if (r.effort != null && r.max_tokens != null)
    return 'Only one of "reasoning.effort" and "reasoning.max_tokens" may be specified.';
  if (r.effort != null && !(typeof r.effort === 'string' && ROUTER_EFFORTS.has(r.effort)))
    return `\`reasoning.effort\` must be one of ${[...ROUTER_EFFORTS].join(', ')}.`;
  if (
    r.max_tokens != null &&
    !(typeof r.max_tokens === 'number' && Number.isInteger(r.max_tokens) && r.max_tokens >= 0)
  )
    return '`reasoning.max_tokens` must be a non-negative integer.';
  for (const flag of ['exclude', 'enabled'])
    if (r[flag] != null && typeof r[flag] !== 'boolean') return `\`reasoning.${flag}\` must be a boolean.`;
  return null;
}

/**
 * The body as the coins' identity: without `stream` and `stream_options`, and written as
 * JSON.stringify writes it, so neither those nor how a client spaced its JSON changes a coin.
 */
function coinIdentity(b: Record<string, unknown>): string {
  const { stream: _stream, stream_options: _options, ...rest } = b;
  return JSON.stringify(rest);
}

/** The router's `provider` object (ProviderPreferences): lists of strings and booleans where documented. */
function readPreferences(value: unknown): RoutingPreferences | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object';
  const v = value as Record<string, unknown>;
  for (const list of ['order', 'only', 'ignore', 'quantizations'] as const) {
    const field = v[list];
    if (field != null && !(Array.isArray(field) && field.every((x) => typeof x === 'string')))
      return `\`${list}\` must be a list of strings`;
  }
  for (const flag of ['allow_fallbacks', 'require_parameters', 'zdr'] as const) {
    if (v[flag] != null && typeof v[flag] !== 'boolean') return `\`${flag}\` must be a boolean`;
  }
  const out: RoutingPreferences = {};
  if (Array.isArray(v.order)) out.order = v.order as string[];
  if (Array.isArray(v.only)) out.only = v.only as string[];
  if (Array.isArray(v.ignore)) out.ignore = v.ignore as string[];
  if (Array.isArray(v.quantizations)) out.quantizations = v.quantizations as string[];
  if (typeof v.allow_fallbacks === 'boolean') out.allow_fallbacks = v.allow_fallbacks;
  if (typeof v.require_parameters === 'boolean') out.require_parameters = v.require_parameters;
  // `sort` is a strategy name or an object ({ by, partition }); the simulator only needs to know it is set.
  if (typeof v.sort === 'string') out.sort = v.sort;
  else if (typeof v.sort === 'object' && v.sort !== null) out.sort = 'custom';
  return out;
}
