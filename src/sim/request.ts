import type { ServiceKind } from '../types.js';
import type { ChatMessage } from './answer.js';
import { directBadRequest } from './errors-direct.js';
import { routerBadRequest } from './errors-router.js';
import type { SimReply } from './reply.js';

export interface ParsedRequest {
  model: string;
  messages: ChatMessage[];
  maxTokens: number | null;
}

export type RequestRead = { ok: true; request: ParsedRequest } | { ok: false; reply: SimReply };

/** Reads and validates a chat-completion body; a bad one gets that platform's 400. */
export function readCompletionRequest(kind: ServiceKind, raw: string): RequestRead {
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
    const msg = m as Record<string, unknown> | null;
    if (
      typeof msg !== 'object' ||
      msg === null ||
      typeof msg.role !== 'string' ||
      typeof msg.content !== 'string'
    ) {
      return fail(
        `messages[${i}] must be an object with string \`role\` and string \`content\`.`,
        `messages[${i}]`,
      );
    }
    messages.push({ role: msg.role, content: msg.content });
  }
  const maxTokens = b.max_tokens;
  if (maxTokens != null && !(typeof maxTokens === 'number' && Number.isInteger(maxTokens) && maxTokens > 0)) {
    return fail('`max_tokens` must be a positive integer.', 'max_tokens');
  }
  // reasoning_effort is accepted and ignored (the simulated models do not reason); only its type is checked.
  if (b.reasoning_effort != null && typeof b.reasoning_effort !== 'string') {
    return fail('`reasoning_effort` must be a string.', 'reasoning_effort');
  }
  return {
    ok: true,
    request: { model: b.model, messages, maxTokens: (maxTokens as number | null | undefined) ?? null },
  };
}
