export type Role = 'system' | 'user' | 'assistant' | 'tool';

/**
 * One chat message in the services' own (OpenAI) shape, carried to the service with every
 * field it has. The suite schema decides which fields a suite may write: role and content,
 * an assistant turn's `tool_calls` (its content may then be null) and a `tool` result's `tool_call_id`.
 */
export interface Message {
  role: Role;
  content: string | null;
  name?: string;
  tool_calls?: MessageToolCall[];
  tool_call_id?: string;
}

/** A tool call as an assistant message carries it (`arguments` is JSON text). */
export interface MessageToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/**
 * Request parameters, sent as the suite wrote them (the suite schema refuses any it does not
 * declare, and says each one's type); a kind's own ones (the router's `provider`, `reasoning`,
 * `top_k` …, the direct service's `reasoning_effort`) only to that kind (its adapter's `params`).
 */
export interface RequestParams {
  [param: string]: unknown;
  max_tokens?: number;
  /** OpenAI's current name for the cap (it counts reasoning tokens); reasoning models refuse `max_tokens`. */
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  seed?: number;
  stop?: string | string[];
  presence_penalty?: number;
  frequency_penalty?: number;
  logit_bias?: Record<string, number>;
  logprobs?: boolean;
  top_logprobs?: number;
  user?: string;
  verbosity?: string;
  prompt_cache_key?: string;
  service_tier?: string;
  reasoning_effort?: string;
  /** The router's reasoning settings: `effort` or a `max_tokens` budget (not both), `exclude`, `enabled`. */
  reasoning?: { effort?: string; max_tokens?: number; exclude?: boolean; enabled?: boolean };
  top_k?: number;
  min_p?: number;
  repetition_penalty?: number;
  /** The router's plugins (`[{ id: "response-healing" }]`): recorded with each answer, as they change what comes back. */
  plugins?: { id: string; [field: string]: unknown }[];
  transforms?: string[];
  /** The router's model fallback list: another model may answer (refused by `validate` unless the suite allows it). */
  models?: string[];
  /** Router provider preferences (`provider: { only, order, allow_fallbacks, … }`), sent as given to router services. */
  provider?: ProviderPreferences;
  /**
   * Function tools as the services take them. A suite as written may name a file holding
   * them (a string); the loader puts the tools in its place before any request is made.
   */
  tools?: unknown[] | string;
  /** auto, none, required, or `{ type: function, function: { name } }`. */
  tool_choice?: unknown;
  parallel_tool_calls?: boolean;
  /** `{ type: json_object }` or `{ type: json_schema, json_schema: { name, strict, schema } }`. */
  response_format?: unknown;
}

/** The routing service's documented provider preferences (a suite pins the provider with them). */
export interface ProviderPreferences {
  order?: string[];
  only?: string[];
  ignore?: string[];
  allow_fallbacks?: boolean;
  require_parameters?: boolean;
  data_collection?: 'allow' | 'deny';
  zdr?: boolean;
  quantizations?: string[];
  sort?: 'price' | 'throughput' | 'latency';
}

/** A chat-completion request as the services take it: the model, the messages and the parameters. */
export interface ChatRequest {
  model: string;
  messages: Message[];
  params: RequestParams;
}

/** The two names of the cap on an answer's tokens: the older `max_tokens` and OpenAI's current `max_completion_tokens`. */
export type TokenCapParam = 'max_tokens' | 'max_completion_tokens';

/** The token cap request parameters give, and under which name; null when they give none (the config's default then applies). */
export function tokenCap(params: Readonly<RequestParams>): { param: TokenCapParam; value: number } | null {
  if (typeof params.max_completion_tokens === 'number')
    return { param: 'max_completion_tokens', value: params.max_completion_tokens };
  if (typeof params.max_tokens === 'number') return { param: 'max_tokens', value: params.max_tokens };
  return null;
}
