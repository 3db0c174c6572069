/**
 * When a streamed answer's tokens came, as the client measured them: from the request's
 * start to its first and last content, reasoning, refusal or tool-call delta (a keep-alive
 * or a role-only chunk is no token), and how many data events it took. Read at the edge
 * (service/stream-read.ts), recorded with the answer (record/fields/stream.ts).
 */
export interface StreamTiming {
  first_token_ms: number | null;
  last_token_ms: number | null;
  chunks: number;
}
