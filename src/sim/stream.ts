import type { SimFlavour } from '../adapters/index.js';
import type { SimReply } from './reply.js';
import type { WireToolCall } from './tool-turn.js';

/** Characters of arguments per chunk: small enough that every call arrives in several pieces. */
const ARGUMENT_PIECE = 16;

/**
 * Tool calls as OpenAI streams them: per call, a chunk with its `index`, `id`, `type` and name
 * (and empty arguments; the first one also carries the role and `content: null`), then its
 * arguments in pieces that carry only `index` and `function.arguments`, to be concatenated.
 */
function toolCallDeltas(calls: readonly WireToolCall[]): Record<string, unknown>[] {
  const deltas: Record<string, unknown>[] = [];
  calls.forEach((call, index) => {
    const head = {
      index,
      id: call.id,
      type: 'function',
      function: { name: call.function.name, arguments: '' },
    };
    deltas.push(
      index === 0 ? { role: 'assistant', content: null, tool_calls: [head] } : { tool_calls: [head] },
    );
    const args = call.function.arguments;
    for (let at = 0; at < args.length; at += ARGUMENT_PIECE)
      deltas.push({ tool_calls: [{ index, function: { arguments: args.slice(at, at + ARGUMENT_PIECE) } }] });
  });
  return deltas;
}

/**
 * A 200 answer as server-sent events, the way `stream: true` is answered: the content in a
 * chunk (`object: chat.completion.chunk`, a `delta`) or the tool calls in several, then the finish reason, then usage in a
 * final chunk with empty `choices`, then `data: [DONE]`. The router first sends a
 * `: OPENROUTER PROCESSING` comment (clients must skip it), and an error inside the answer
 * becomes its documented mid-stream error chunk (`finish_reason: "error"`, the stream ends).
 * A reply that is not a complete JSON answer (an HTTP error, a broken body) is left as it is.
 */
export function asEventStream(kind: SimFlavour, reply: SimReply): SimReply {
  if (reply.action !== 'respond' || reply.status !== 200) return reply;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(reply.body) as Record<string, unknown>;
  } catch {
    return reply;
  }
  const { choices, usage, error, object: _object, ...head } = body;
  const chunk = (extra: Record<string, unknown>) =>
    `data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', ...extra })}\n\n`;
  const events: string[] = kind === 'router' ? [': OPENROUTER PROCESSING\n\n'] : [];
  if (error !== undefined) {
    events.push(
      chunk({
        error,
        choices: [
          { index: 0, delta: { content: '' }, finish_reason: 'error', native_finish_reason: 'error' },
        ],
      }),
    );
  } else {
    for (const c of Array.isArray(choices) ? (choices as Record<string, unknown>[]) : []) {
      const message = (c.message ?? {}) as Record<string, unknown>;
      // A reasoning model's reasoning comes first, in a delta of its own (the router's stream).
      const reasoning =
        message.reasoning_details === undefined
          ? []
          : [
              {
                role: 'assistant',
                content: null,
                reasoning: message.reasoning,
                reasoning_details: message.reasoning_details,
              },
            ];
      const deltas = Array.isArray(message.tool_calls)
        ? [...reasoning, ...toolCallDeltas(message.tool_calls as WireToolCall[])]
        : [
            message.refusal
              ? { role: 'assistant', content: null, refusal: message.refusal }
              : { role: 'assistant', content: message.content ?? '' },
          ];
      for (const delta of deltas)
        events.push(
          chunk({ choices: [{ index: c.index ?? 0, delta, finish_reason: null, logprobs: null }] }),
        );
      const end: Record<string, unknown> = {
        index: c.index ?? 0,
        delta: {},
        finish_reason: c.finish_reason ?? null,
        logprobs: null,
      };
      if (c.native_finish_reason !== undefined) end.native_finish_reason = c.native_finish_reason;
      events.push(chunk({ choices: [end] }));
    }
    if (usage !== undefined) events.push(chunk({ choices: [], usage }));
  }
  events.push('data: [DONE]\n\n');
  const text = events.join('');
  return {
    action: 'respond',
    status: 200,
    headers: { ...reply.headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    body: text,
  };
}
