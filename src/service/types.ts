import type { CaseError } from '../core/answer.js';
import type { ChatRequest } from '../core/messages.js';
import type { Completion } from '../record/answer.js';
import type { ServiceConfig } from '../config/types.js';
import type { SimDirective } from '../suite/types.js';
import type { StreamRead } from './exchange.js';
export interface CompletionRequest extends ChatRequest {
  /** Only sent when the client talks to the embedded simulator. */
  sim?: SimDirective;
  /**
   * Identifies the case (e.g. `suite/case#repeat`) so the simulator can count sends per
   * case; sent as a header only to the simulator, never to a real service.
   */
  case_key?: string;
  signal?: AbortSignal;
}

/** What one logical call produced, after retries. Failures are data, not exceptions. */
export type CallOutcome =
  | {
      status: 'ok';
      completion: Completion;
      http_status: number;
      latency_ms: number;
      /** Time spent waiting between attempts (backoff / Retry-After). */
      wait_ms: number;
      attempts: number;
      attempt_errors: CaseError[];
      /** `X-OpenRouter-Cache-Status` when the service sent it (a cache hides drift). */
      cache_status?: string | null;
      /** A secret was found in an attempt's answer and replaced as it was read. */
      redacted: boolean;
      /** How the answer streamed (`stream: true`): its first and last token, chunks, how it ended. */
      stream?: StreamRead;
    }
  | {
      status: 'error';
      error: CaseError;
      /** What could still be read (model, usage, finish_reason) — e.g. for empty content. */
      completion: Completion | null;
      http_status: number | null;
      latency_ms: number;
      wait_ms: number;
      attempts: number;
      attempt_errors: CaseError[];
      cache_status?: string | null;
      redacted: boolean;
      stream?: StreamRead;
    };

export interface ServiceClient {
  readonly service: ServiceConfig;
  complete(request: CompletionRequest): Promise<CallOutcome>;
  close(): Promise<void>;
}
