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
 * declare); a kind's own ones (`provider`, `reasoning_effort`) only to that kind (its adapter's `params`).
 */
export interface RequestParams {
  [param: string]: unknown;
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  seed?: number;
  reasoning_effort?: string;
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
