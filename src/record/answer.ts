import type { Usage } from '../core/answer.js';
import type { Recorded } from './registry.js';

/**
 * What served an answer, where the service says (provider, system_fingerprint, …): on each
 * completion, and kept on its sample. Declared once per field in src/record/fields/.
 */
export type ServedBy = Recorded;

export interface Completion extends ServedBy {
  id: string | null;
  /** The concrete model that answered (may differ from the requested alias). */
  model: string | null;
  content: string;
  finish_reason: string | null;
  usage: Usage | null;
  /**
   * The router's `reasoning_details` of the answer's message, as received (redacted and
   * bounded with the body): a conversation's next step sends them back, as the router's
   * documentation asks for reasoning models to continue. Never recorded.
   */
  reasoning_details?: unknown[];
}
