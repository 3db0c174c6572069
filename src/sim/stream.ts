import type { SimFlavour } from '../adapters/index.js';
import type { SimStreamFault } from '../suite/types.js';
import { tokenCount, tokensIn } from './answer.js';
import type { Answer } from './answer-reply.js';
import type { SimStream, SimWrite } from './reply.js';

/** The router's keep-alive comment (api-reference/streaming); clients must skip it. */
const KEEPALIVE = ': OPENROUTER PROCESSING\n\n';
/** While the router waits longer than this for its next event, it sends a keep-alive comment this often. */
const KEEPALIVE_EVERY_MS = 1000;
/** Comments the `keepalive` fault sends before the first event. */
export const KEEPALIVE_BURST = 20;
/** Characters (code points) per chunk at most: content comes a word a chunk, a long word in pieces. */
const CONTENT_PIECE = 12;
/** Characters of tool-call arguments per chunk: small enough that every call arrives in several pieces. */
const ARGUMENT_PIECE = 16;
/** A stall lasts this long unless `stall_ms` says otherwise: longer than the usual 60 s client time-out. */
export const DEFAULT_STALL_MS = 90_000;
/** `slow_first_token`: the first token comes three times later than normal, and at least this much later. */
const SLOW_FIRST_TOKEN_MIN_MS = 500;

/** How one stream is sent: when its first token comes, the pace after it, and what goes wrong. */
export interface StreamPlan {
  /** From the request to the first token (the simulator's latency plus `delay_ms`). */
  firstTokenMs: number;
  /**
   * How fast the model generates after its first token: each later chunk comes its tokens'
   * worth of time after the one before (generationMs).
   */
  tokensPerS: number;
  /** How long a `stall` pauses the stream. */
  stallMs: number;
  /** The direct service's `stream_options.include_usage` (the router always sends usage). */
  includeUsage: boolean;
  faults: ReadonlySet<SimStreamFault>;
}

/**
 * How long a chunk takes to generate: the tokens of the text it adds (content, refusal,
 * reasoning, a tool call's name or a piece of its arguments; four characters a token, a share
 * of one counted as such) at the model's rate. A chunk that adds no text takes no time.
 */
function generationMs(delta: Delta, tokensPerS: number): number {
  return (tokensIn(deltaText(delta)) / tokensPerS) * 1000;
}

/** The text a delta adds to the answer (reasoning_details repeat `reasoning`: counted once). */
function deltaText(delta: Delta): string {
  if (typeof delta.reasoning === 'string') return delta.reasoning;
  let text = '';
  if (typeof delta.content === 'string') text += delta.content;
  if (typeof delta.refusal === 'string') text += delta.refusal;
  for (const call of (delta.tool_calls ?? []) as { function?: { name?: string; arguments?: string } }[])
    text += (call.function?.name ?? '') + (call.function?.arguments ?? '');
  return text;
}

function firstTokenMs(plan: Pick<StreamPlan, 'firstTokenMs' | 'faults'>): number {
  const normal = plan.firstTokenMs;
  return plan.faults.has('slow_first_token')
    ? Math.max(3 * normal, normal + SLOW_FIRST_TOKEN_MIN_MS)
    : normal;
}

/**
 * How much later a whole (non-streamed) answer comes under the stream faults that hit it: the
 * generation behind it is the same, so a slow first token and a stall delay all of it. (It
 * does not wait for the generation itself: a whole answer comes when a stream of it would
 * have sent its first token, plus those pauses — so the simulator answers plain requests as
 * fast as it did; a stream takes its generation on top.)
 */
export function wholeAnswerDelayMs(plan: Pick<StreamPlan, 'firstTokenMs' | 'faults' | 'stallMs'>): number {
  return firstTokenMs(plan) - plan.firstTokenMs + (plan.faults.has('stall') ? plan.stallMs : 0);
}

type Delta = Record<string, unknown>;

/** An answer's chunks before they are written: head fields, the deltas, the finish, usage, an error. */
interface Chunks {
  /** The direct service's role-only first chunk of a text answer (sent before the first token). */
  role: string | null;
  deltas: Delta[];
  /** Turns a delta into its event. */
  event: (delta: Delta) => string;
  finish: string | null;
  usage: string | null;
  /** The error event of an error inside a 200 answer. */
  error: string | null;
  /** Turns an error object into its error event (`error_after_content` sends the late error). */
  errorEvent: (error: unknown) => string;
}

/** Where a stream of `n` deltas goes wrong mid-way: after half of them (at least one, when it has any). */
function failPoint(n: number): number {
  return Math.ceil(n / 2);
}

/**
 * A 200 answer as server-sent events, sent over time the way `stream: true` is answered
 * (README, "The embedded simulator"; service-facts.md, "Streaming"): the router's
 * `: OPENROUTER PROCESSING` comment at once and every second while it waits, the direct
 * service's role-only chunk at once; then after `firstTokenMs` the reasoning, content or
 * tool-call deltas (a word or a few characters each), each after the time its tokens take
 * to generate at the plan's `tokensPerS`; the finish reason;
 * usage in a chunk with empty `choices` (the router always, the direct service when asked);
 * `data: [DONE]`. An error inside the answer is the documented error event (HTTP 200, an
 * `error` object and `finish_reason: "error"`), and the stream ends there. The plan's faults
 * change when and how the bytes are written.
 */
export function streamAnswer(kind: SimFlavour, answer: Answer, plan: StreamPlan): SimStream {
  const { faults } = plan;
  const chunks = chunksOf(kind, answer.body, plan.includeUsage);
  const out = new Schedule(kind === 'router', faults.has('split_utf8'));
  const finish = (ending: SimStream['ending']): SimStream => ({
    action: 'stream',
    status: 200,
    headers: { ...answer.headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
    writes: out.writes,
    ending,
  });
  if (kind === 'router') out.send(KEEPALIVE);
  const keepalive = faults.has('keepalive');
  if (chunks.role !== null && !keepalive) out.send(chunks.role);
  const first = firstTokenMs(plan);
  if (keepalive) {
    for (let i = 0; i < KEEPALIVE_BURST; i++) {
      out.wait(first / KEEPALIVE_BURST);
      out.send(KEEPALIVE);
    }
    if (chunks.role !== null) out.send(chunks.role);
  } else out.wait(first);
  if (chunks.error !== null) {
    out.send(chunks.error);
    return finish('end');
  }
  const n = chunks.deltas.length;
  const half = failPoint(n);
  for (let i = 0; i <= n; i++) {
    if (i === half) {
      if (faults.has('stall')) out.wait(plan.stallMs);
      if (faults.has('error_after_content')) {
        out.send(chunks.errorEvent(lateError(kind)));
        return finish('end');
      }
      if (faults.has('cut')) return finish('cut');
      if (answer.broken) {
        // bad_response: an event whose JSON is cut in half, and the stream ends.
        const whole = i < n ? chunks.event(chunks.deltas[i]!) : (chunks.finish ?? chunks.event({}));
        out.send(`${whole.slice(0, Math.floor(whole.length / 2))}\n\n`);
        return finish('end');
      }
    }
    if (i < n) {
      if (i > 0) out.wait(generationMs(chunks.deltas[i]!, plan.tokensPerS));
      out.send(chunks.event(chunks.deltas[i]!));
    }
  }
  if (chunks.finish !== null) out.send(chunks.finish);
  if (chunks.usage !== null && !faults.has('no_usage')) out.send(chunks.usage);
  out.send('data: [DONE]\n\n');
  return finish('end');
}

/**
 * The documented non-streamed provider error: the content generated before the error (the
 * deltas a stream would have sent before its error event), `choices[].error` and
 * `finish_reason: "error"`; usage counts the partial content (and the reasoning sent before it)
 * and, on the router, costs nothing.
 */
export function partialAnswer(kind: SimFlavour, answer: Answer): Answer {
  const { choices, usage, ...head } = answer.body;
  const choice = firstChoice(choices);
  if (choice === null) return answer;
  const deltas = deltasOf(kind, messageOf(choice));
  const sent = deltas.slice(0, failPoint(deltas.length));
  let content = '';
  let reasoning = '';
  const calls: { id: string; type: string; function: { name: string; arguments: string } }[] = [];
  for (const delta of sent) {
    if (typeof delta.content === 'string') content += delta.content;
    if (typeof delta.reasoning === 'string') reasoning += delta.reasoning;
    for (const piece of (delta.tool_calls ?? []) as Record<string, unknown>[]) {
      const fn = (piece.function ?? {}) as { name?: string; arguments?: string };
      const call = (calls[piece.index as number] ??= {
        id: '',
        type: 'function',
        function: { name: '', arguments: '' },
      });
      if (typeof piece.id === 'string') call.id = piece.id;
      call.function.name += fn.name ?? '';
      call.function.arguments += fn.arguments ?? '';
    }
  }
  const message: Record<string, unknown> =
    calls.length > 0
      ? { role: 'assistant', content: null, tool_calls: calls }
      : { role: 'assistant', content };
  // A router reasoning model's thinking streamed before the error is the answer's too, counted within its tokens.
  const thought = reasoning === '' ? 0 : tokenCount(reasoning);
  if (thought > 0) message.reasoning = reasoning;
  const written = content + calls.map((c) => c.function.name + c.function.arguments).join('');
  const old = (usage ?? {}) as Record<string, unknown>;
  const prompt = typeof old.prompt_tokens === 'number' ? old.prompt_tokens : 0;
  const completion = tokenCount(written) + thought;
  const partialUsage: Record<string, unknown> = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
  if (thought > 0) partialUsage.completion_tokens_details = { reasoning_tokens: thought };
  if (kind === 'router') partialUsage.cost = 0;
  const erred: Record<string, unknown> = {
    index: 0,
    message,
    logprobs: null,
    finish_reason: 'error',
    error: lateError(kind),
  };
  if (kind === 'router') erred.native_finish_reason = 'error';
  return { ...answer, body: { ...head, choices: [erred], usage: partialUsage }, usable: false };
}

/** The error an upstream reports when it fails after generation started. */
function lateError(kind: SimFlavour): Record<string, unknown> {
  return kind === 'router'
    ? {
        code: 502,
        message: 'Provider disconnected unexpectedly',
        metadata: { error_type: 'provider_unavailable', provider_code: 'stream_error' },
      }
    : {
        code: 'server_error',
        message: 'The server had an error while processing your request. Sorry about that!',
        type: 'server_error',
        param: null,
      };
}

function firstChoice(choices: unknown): Record<string, unknown> | null {
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  return typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : null;
}

function messageOf(choice: Record<string, unknown>): Record<string, unknown> {
  return (choice.message ?? {}) as Record<string, unknown>;
}

/** An answer's body as its chunks, in the service's chunk shape. */
function chunksOf(kind: SimFlavour, body: Record<string, unknown>, includeUsage: boolean): Chunks {
  const router = kind === 'router';
  const head: Record<string, unknown> = {
    id: body.id,
    object: 'chat.completion.chunk',
    created: body.created,
    model: body.model,
    ...(router ? { provider: body.provider } : {}),
    system_fingerprint: body.system_fingerprint,
  };
  // OpenAI sends `usage: null` on every chunk but the last when usage was asked for.
  const tail = !router && includeUsage ? { usage: null } : {};
  // The head is the same on every chunk: serialised once (it always has `object`), each
  // chunk's own fields (never empty, never a head field) after it — the bytes of
  // JSON.stringify({ ...head, ...fields }).
  const opening = JSON.stringify(head).slice(0, -1);
  const line = (fields: Record<string, unknown>) => `data: ${opening},${JSON.stringify(fields).slice(1)}\n\n`;
  const choiceOf = (delta: Delta, finishReason: unknown, native: unknown): Record<string, unknown> =>
    router
      ? { index: 0, delta, finish_reason: finishReason, native_finish_reason: native }
      : { index: 0, delta, logprobs: null, finish_reason: finishReason };
  const event = (delta: Delta) => line({ choices: [choiceOf(delta, null, null)], ...tail });
  const errorEvent = (error: unknown) =>
    line({ error, choices: [choiceOf({ content: '' }, 'error', 'error')], ...tail });
  const usage =
    body.usage !== undefined && (router || includeUsage) ? line({ choices: [], usage: body.usage }) : null;
  const none = { role: null, deltas: [], event, finish: null, errorEvent };
  if (body.error !== undefined) return { ...none, usage: null, error: errorEvent(body.error) };
  const choice = firstChoice(body.choices);
  if (choice === null) return { ...none, usage, error: null };
  const message = messageOf(choice);
  const text = !Array.isArray(message.tool_calls);
  const end = choiceOf(
    router ? { role: 'assistant', content: '' } : {},
    choice.finish_reason ?? null,
    choice.native_finish_reason ?? choice.finish_reason ?? null,
  );
  return {
    role: !router && text ? event({ role: 'assistant', content: '', refusal: null }) : null,
    deltas: deltasOf(kind, message),
    event,
    finish: line({ choices: [end], ...tail }),
    usage,
    error: null,
    errorEvent,
  };
}

/**
 * A message as the deltas that add up to it: a reasoning model's reasoning first (`reasoning`
 * and one `reasoning_details` entry per piece, the signature on its last), then the content or
 * refusal a word or a few characters at a time, or each tool call's head (`index`, `id`,
 * `type`, name) and its arguments in pieces. The router's deltas all carry the role; the
 * direct service's role came in its first chunk (or with the first call).
 */
function deltasOf(kind: SimFlavour, message: Record<string, unknown>): Delta[] {
  const router = kind === 'router';
  const role = router ? { role: 'assistant' } : {};
  const deltas: Delta[] = [];
  const details = Array.isArray(message.reasoning_details) ? (message.reasoning_details as Delta[]) : [];
  details.forEach((detail, at) => {
    if (typeof detail.text !== 'string') {
      deltas.push({ ...role, reasoning_details: [detail] });
      return;
    }
    const { text, signature, ...rest } = detail;
    const parts = words(text);
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      deltas.push({
        ...role,
        content: null,
        reasoning: at > 0 && i === 0 ? `\n${part}` : part,
        reasoning_details: [
          { type: rest.type, text: part, ...(last && signature !== undefined ? { signature } : {}), ...rest },
        ],
      });
    });
  });
  if (Array.isArray(message.tool_calls)) {
    (
      message.tool_calls as { id: string; type: string; function: { name: string; arguments: string } }[]
    ).forEach((call, index) => {
      const head = {
        index,
        id: call.id,
        type: 'function',
        function: { name: call.function.name, arguments: '' },
      };
      deltas.push(
        index === 0
          ? { role: 'assistant', content: null, tool_calls: [head] }
          : { ...role, tool_calls: [head] },
      );
      for (const part of slices(call.function.arguments, ARGUMENT_PIECE))
        deltas.push({ ...role, tool_calls: [{ index, function: { arguments: part } }] });
    });
  } else if (typeof message.refusal === 'string' && message.refusal !== '') {
    for (const part of words(message.refusal)) deltas.push({ ...role, refusal: part });
  } else if (typeof message.content === 'string') {
    for (const part of words(message.content)) deltas.push({ ...role, content: part });
  }
  return deltas;
}

/** A text as pieces that add up to it: a word with the spaces before it, long words cut every CONTENT_PIECE code points. */
function words(text: string): string[] {
  const found = text.match(/\s*\S+/gu) ?? [];
  const out = found.flatMap((word) => slices(word, CONTENT_PIECE));
  const rest = text.slice(found.join('').length);
  if (rest !== '') {
    if (out.length > 0) out[out.length - 1] += rest;
    else out.push(rest);
  }
  return out;
}

/** A text cut every `size` code points (never inside a surrogate pair). */
function slices(text: string, size: number): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  for (let at = 0; at < points.length; at += size) out.push(points.slice(at, at + size).join(''));
  return out;
}

/**
 * Writes and the pauses before them. Waiting on the router, a keep-alive comment goes out
 * every KEEPALIVE_EVERY_MS. With `awkward` (the `split_utf8` fault) an event is written in two
 * pieces, split inside its first multi-byte UTF-8 character, or else inside its tool-call
 * arguments or content string.
 */
class Schedule {
  readonly writes: SimWrite[] = [];
  private pending = 0;

  constructor(
    private readonly keepAlive: boolean,
    private readonly awkward: boolean,
  ) {}

  wait(ms: number): void {
    this.pending += ms;
    if (!this.keepAlive) return;
    while (this.pending > KEEPALIVE_EVERY_MS) {
      this.writes.push({ afterMs: KEEPALIVE_EVERY_MS, bytes: Buffer.from(KEEPALIVE) });
      this.pending -= KEEPALIVE_EVERY_MS;
    }
  }

  send(text: string): void {
    const bytes = Buffer.from(text);
    const at = this.awkward && text.startsWith('data: {') ? awkwardSplit(bytes) : null;
    if (at === null) this.writes.push({ afterMs: this.pending, bytes });
    else
      this.writes.push(
        { afterMs: this.pending, bytes: bytes.subarray(0, at) },
        { afterMs: 0, bytes: bytes.subarray(at) },
      );
    this.pending = 0;
  }
}

/** Where to split an event's bytes awkwardly, or null when it has no string worth splitting. */
function awkwardSplit(bytes: Buffer): number | null {
  // Inside the first multi-byte character: after its lead byte.
  const lead = bytes.findIndex((b) => b >= 0xc0);
  if (lead >= 0) return lead + 1;
  for (const key of ['"arguments":"', '"content":"', '"refusal":"', '"reasoning":"']) {
    const open = bytes.indexOf(key);
    if (open < 0) continue;
    const start = open + key.length;
    const end = stringEnd(bytes, start);
    if (end - start >= 2) return start + Math.floor((end - start) / 2);
  }
  return null;
}

/** The index of the quote that closes a JSON string starting at `start`. */
function stringEnd(bytes: Buffer, start: number): number {
  let at = start;
  while (at < bytes.length && bytes[at] !== 0x22) at += bytes[at] === 0x5c ? 2 : 1;
  return at;
}
