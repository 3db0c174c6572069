/** DESIGN.md's normalised error vocabulary, one for both services. */
export type ErrorKind =
  | 'preflight'
  | 'auth'
  | 'permission'
  | 'insufficient_credit'
  | 'budget_exceeded'
  | 'depleted'
  | 'routing'
  | 'rate_limited'
  | 'invalid_model'
  | 'body_error'
  | 'empty_choices'
  | 'empty_content'
  /** A reasoning model spent its whole token budget thinking: cut off (length) with no content. */
  | 'reasoning_exhausted'
  | 'timeout'
  | 'network'
  | 'bad_response'
  | 'server_error'
  | 'refusal'
  | 'content_filter'
  | 'endpoint_not_found'
  | 'tool_result_missing'
  | 'max_steps_reached'
  | 'stream_interrupted';

export interface CaseError {
  kind: ErrorKind;
  /** HTTP status of the response, or null when none arrived. */
  http_status: number | null;
  /** The service's normalised error type (`error.type` or `error.metadata.error_type`). */
  type: string | null;
  /** The service's error code (`error.code`, as a string). */
  code: string | null;
  /** Key-free message. */
  message: string;
  /** The model the failing request named (or the body reported). */
  model: string | null;
  /** Seconds the service asked us to wait, when it said. */
  retry_after_s?: number | null;
}

export interface Usage {
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  /** Credits/USD when the service reports it (`usage.cost`). */
  cost?: number | null;
}
