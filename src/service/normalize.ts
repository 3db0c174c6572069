import { count, internedString, text } from '../record/read.js';
import { extractRecorded } from '../record/registry.js';
import type { ServiceKind } from '../config/types.js';
import type { Completion } from '../record/answer.js';
import type { CaseError, ErrorKind, Usage } from '../core/answer.js';
import { type RequestParams, tokenCap } from '../core/messages.js';
import type { StreamTiming } from '../core/stream-timing.js';
import { ADAPTERS } from '../adapters/index.js';
import { type ErrorFields, readErrorFields, readErrorObject } from '../adapters/error-fields.js';
import { isRecord } from '../util/is-record.js';

/** A successful-status body, read: what could be read, plus the failure it hides (if any). */
export interface Normalized {
  completion: Completion;
  error: CaseError | null;
}

/** `usage` is optional on both services; absent or malformed → null, not zeros. */
function readUsage(value: unknown): Usage | null {
  if (!isRecord(value)) return null;
  const prompt_tokens = count(value.prompt_tokens);
  const completion_tokens = count(value.completion_tokens);
  const total_tokens = count(value.total_tokens);
  const cost = count(value.cost);
  // Whole literals, not a field added later: V8 then keeps every field inside the object
  // (adding one afterwards puts it in a separate property array, 40 bytes more per result).
  return cost === null
    ? { prompt_tokens, completion_tokens, total_tokens }
    : { prompt_tokens, completion_tokens, total_tokens, cost };
}

/**
 * Message content as text: a string, or the text parts of a parts array; "" when absent
 * (null: no text, e.g. a tool call). null for anything else — a number or a bare object
 * is a malformed body, not an empty answer.
 */
function readContent(message: Record<string, unknown>): string | null {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (Array.isArray(content) && content.every(isRecord)) {
    return content.map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
  }
  return null;
}

/** How a JSON value is named in a message about a malformed field. */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'a list that is not content parts';
  return value === null ? 'null' : `a ${typeof value}`;
}

/**
 * Reads a 2xx body. The error object is checked before choices because the router puts
 * failures in successful-status bodies; every read field is kept even when it fails.
 */
export function normalizeCompletion(
  kind: ServiceKind,
  body: unknown,
  requestedModel: string,
  httpStatus = 200,
  /** The request's parameters: its tools judge the answer's calls. */
  params: RequestParams | null = null,
  /** When a streamed answer's tokens came (absent: not streamed). */
  stream?: StreamTiming,
  /** The answer's `X-OpenRouter-Cache-Status` header, when it sent one. */
  cacheStatus: string | null = null,
): Normalized {
  const adapter = ADAPTERS[kind];
  const root = isRecord(body) ? body : {};
  const choices = root.choices;
  const first = Array.isArray(choices) && isRecord(choices[0]) ? choices[0] : null;
  const message = first && isRecord(first.message) ? first.message : null;
  const content = message ? readContent(message) : '';
  const completion: Completion = {
    id: text(root.id),
    model: internedString(root.model),
    content: content ?? '',
    finish_reason: first ? internedString(first.finish_reason) : null,
    usage: readUsage(root.usage),
    // What served it (provider, system_fingerprint, refusal, …): each recorded field reads its own.
    ...extractRecorded({
      body: root,
      choice: first,
      message,
      params,
      ...(stream ? { stream } : {}),
      ...(adapter.responseCache ? { cache: { status: cacheStatus } } : {}),
    }),
  };
  if (message && Array.isArray(message.reasoning_details))
    completion.reasoning_details = message.reasoning_details;
  const fail = (errorKind: ErrorKind, text: string, fields?: ErrorFields): Normalized => ({
    completion,
    error: {
      kind: errorKind,
      http_status: httpStatus,
      type: fields?.type ?? null,
      code: fields?.code ?? null,
      message: fields?.message ? `${text}: ${fields.message}` : text,
      model: completion.model ?? requestedModel,
    },
  });

  if (!isRecord(body)) return fail('bad_response', 'the response body is not a JSON object');
  const topError = readErrorFields({ error: root.error });
  if (topError)
    return fail('body_error', `${adapter.title} reported an error in a successful response`, topError);
  if (!Array.isArray(choices)) return fail('bad_response', 'the response has no choices array');
  if (choices.length === 0) return fail('empty_choices', 'the response has an empty choices array');
  if (!first) return fail('bad_response', 'the first choice is not an object');
  if (first.error !== undefined && first.error !== null) {
    return fail('body_error', 'the choice carries an error', readErrorObject(first.error, body));
  }
  if (first.finish_reason === 'error')
    return fail('body_error', 'the choice finished with finish_reason "error"');
  if (!message) return fail('bad_response', 'the first choice has no message');
  if (content === null) {
    return fail('bad_response', `the message content is ${jsonKind(message.content)}, not text`);
  }
  // A refusal is its own outcome (OpenAI's `message.refusal`): its text is kept, and checks run on it.
  if (completion.refusal && completion.content.trim() === '') return fail('refusal', completion.refusal);
  // The provider's filter stopped the answer: say so, rather than "no content".
  if (completion.finish_reason === 'content_filter' && completion.content.trim() === '')
    return fail(
      'content_filter',
      'the provider\'s content filter stopped the answer (finish_reason "content_filter")',
    );
  // A tool call is an answer without text (content null, finish_reason tool_calls).
  if (completion.content.trim() === '' && !completion.tool_calls?.length) {
    if (completion.finish_reason === 'length' && reasoned(completion)) {
      const cap = params ? tokenCap(params) : null;
      const spent = cap?.value ?? completion.usage?.completion_tokens ?? completion.reasoning_tokens;
      return fail(
        'reasoning_exhausted',
        `reasoning used all ${spent ?? 'its'} tokens: raise ${cap?.param ?? 'max_completion_tokens'}`,
      );
    }
    const hint =
      completion.finish_reason === 'length'
        ? ' (finish_reason "length": reasoning may have used every max_tokens)'
        : '';
    return fail('empty_content', `the model returned no content${hint}`);
  }
  return { completion, error: null };
}

/** Whether the model reasoned before it was cut off: reasoning tokens counted, or reasoning text returned. */
function reasoned(completion: Completion): boolean {
  return (completion.reasoning_tokens ?? 0) > 0 || (completion.reasoning ?? '').trim() !== '';
}
