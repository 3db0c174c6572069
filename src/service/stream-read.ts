import { createParser, type EventSourceParser } from 'eventsource-parser';
import { isRecord } from '../util/is-record.js';
import type { StreamTiming } from '../core/stream-timing.js';

/**
 * What a streamed answer showed over time, beside what it said: when its first and last
 * token came (ms from the request's start), how many data events and keep-alive comments
 * arrived, and how it ended.
 */
export interface StreamFacts extends StreamTiming {
  /** Keep-alive comments (`: OPENROUTER PROCESSING`) skipped. */
  comments: number;
  /** Characters of content, reasoning, refusal and tool-call arguments that arrived. */
  characters: number;
  /** `data: [DONE]` came. */
  done: boolean;
  /** Some choice came with a finish_reason. */
  finished: boolean;
}

/** Why reading a stream stopped before its end: too many bytes or events, or an event that is not JSON. */
export type StreamProblem =
  | { kind: 'too_large'; bytes: number }
  | { kind: 'too_many_events'; events: number }
  | { kind: 'malformed'; event: number };

/** Most data events one answer may send: a few per token of the longest answers, with room. */
const MAX_STREAM_EVENTS = 200_000;

/** One choice as its deltas add up. */
interface ChoiceParts {
  index: number;
  content: string[];
  refusal: string[];
  reasoning: string[];
  reasoning_details: Record<string, unknown>[];
  tool_calls: Map<number, { id?: unknown; type?: unknown; name: string; arguments: string[] }>;
  role: unknown;
  finish_reason: unknown;
  native_finish_reason: unknown;
}

/**
 * Reads a chat-completion event stream a piece of bytes at a time — UTF-8 decoded across
 * pieces (a character split between two reads is whole), events parsed by eventsource-parser
 * (comments skipped and counted, `data: [DONE]` honoured) — and adds the chunks up into the
 * body a non-streamed answer would have had: `choices[].message` with the content, refusal,
 * reasoning and `reasoning_details` concatenated and the tool calls assembled by index (their
 * arguments concatenated), each choice's finish_reason and native_finish_reason, and the
 * answer's id, model, provider, system_fingerprint, usage and `error` as the chunks gave them.
 * Pure but for `now`: the same bytes, split anywhere, read the same (a test splits recorded
 * streams at every byte). Nothing is kept of the raw events, so redacting the assembled body
 * once covers a key split across chunks.
 */
export class StreamReader {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly parser: EventSourceParser;
  private readonly head: Record<string, unknown> = {};
  private readonly choices = new Map<number, ChoiceParts>();
  private usage: unknown;
  private error: unknown;
  private bytes = 0;
  private problem: StreamProblem | null = null;
  readonly facts: StreamFacts = {
    first_token_ms: null,
    last_token_ms: null,
    chunks: 0,
    comments: 0,
    characters: 0,
    done: false,
    finished: false,
  };

  constructor(
    private readonly limits: { maxBytes: number; maxEvents?: number },
    /** Milliseconds since the request started. */
    private readonly now: () => number,
  ) {
    this.parser = createParser({
      onEvent: (event) => this.event(event.data),
      onComment: () => {
        this.facts.comments++;
      },
    });
  }

  /** Feeds the next bytes; false once reading should stop (a limit passed, or a malformed event). */
  feed(piece: Uint8Array): boolean {
    if (this.problem) return false;
    this.bytes += piece.length;
    if (this.bytes > this.limits.maxBytes) {
      this.problem = { kind: 'too_large', bytes: this.bytes };
      return false;
    }
    this.parser.feed(this.decoder.decode(piece, { stream: true }));
    return this.problem === null;
  }

  /** Why reading stopped early, if it did. */
  get stopped(): StreamProblem | null {
    return this.problem;
  }

  /** The answer as a non-streamed body (what came so far, when the stream was cut). */
  body(): Record<string, unknown> {
    const tail = this.decoder.decode();
    if (tail !== '' && !this.problem) this.parser.feed(tail);
    const choices = [...this.choices.values()]
      .sort((a, b) => a.index - b.index)
      .map((c) => {
        // A tool-call or refusal answer with no content has content null, as a plain one has.
        const none = c.content.length === 0 && (c.tool_calls.size > 0 || c.refusal.length > 0);
        const message: Record<string, unknown> = {
          role: c.role ?? 'assistant',
          content: none ? null : c.content.join(''),
        };
        if (c.refusal.length) message.refusal = c.refusal.join('');
        if (c.reasoning.length) message.reasoning = c.reasoning.join('');
        if (c.reasoning_details.length) message.reasoning_details = c.reasoning_details;
        if (c.tool_calls.size) {
          message.tool_calls = [...c.tool_calls.entries()]
            .sort(([a], [b]) => a - b)
            .map(([, call]) => ({
              id: call.id,
              type: call.type ?? 'function',
              function: { name: call.name, arguments: call.arguments.join('') },
            }));
        }
        const choice: Record<string, unknown> = {
          index: c.index,
          message,
          finish_reason: c.finish_reason ?? null,
        };
        if (c.native_finish_reason !== undefined) choice.native_finish_reason = c.native_finish_reason;
        return choice;
      });
    const body: Record<string, unknown> = { ...this.head, object: 'chat.completion', choices };
    if (this.usage !== undefined) body.usage = this.usage;
    if (this.error !== undefined) body.error = this.error;
    return body;
  }

  private event(data: string): void {
    if (this.problem) return;
    if (data === '[DONE]') {
      this.facts.done = true;
      return;
    }
    const chunks = ++this.facts.chunks;
    if (chunks > (this.limits.maxEvents ?? MAX_STREAM_EVENTS)) {
      this.problem = { kind: 'too_many_events', events: chunks };
      return;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      this.problem = { kind: 'malformed', event: chunks };
      return;
    }
    if (!isRecord(chunk)) {
      this.problem = { kind: 'malformed', event: chunks };
      return;
    }
    for (const key of ['id', 'model', 'provider', 'system_fingerprint', 'created', 'service_tier'])
      if (chunk[key] !== undefined && chunk[key] !== null) this.head[key] = chunk[key];
    if (isRecord(chunk.usage)) this.usage = chunk.usage;
    if (chunk.error !== undefined && chunk.error !== null) this.error = chunk.error;
    if (!Array.isArray(chunk.choices)) return;
    for (const raw of chunk.choices) if (isRecord(raw)) this.choice(raw);
  }

  private choice(raw: Record<string, unknown>): void {
    const index = typeof raw.index === 'number' ? raw.index : 0;
    let c = this.choices.get(index);
    if (!c) {
      c = {
        index,
        content: [],
        refusal: [],
        reasoning: [],
        reasoning_details: [],
        tool_calls: new Map(),
        role: undefined,
        finish_reason: undefined,
        native_finish_reason: undefined,
      };
      this.choices.set(index, c);
    }
    if (raw.finish_reason !== undefined && raw.finish_reason !== null) {
      c.finish_reason = raw.finish_reason;
      this.facts.finished = true;
    }
    if (raw.native_finish_reason !== undefined && raw.native_finish_reason !== null)
      c.native_finish_reason = raw.native_finish_reason;
    const delta = isRecord(raw.delta) ? raw.delta : isRecord(raw.message) ? raw.message : null;
    if (!delta) return;
    if (typeof delta.role === 'string') c.role = delta.role;
    let characters = 0;
    for (const [key, parts] of [
      ['content', c.content],
      ['refusal', c.refusal],
      ['reasoning', c.reasoning],
    ] as const) {
      const piece = delta[key];
      if (typeof piece === 'string' && piece !== '') {
        parts.push(piece);
        characters += piece.length;
      }
    }
    if (Array.isArray(delta.reasoning_details))
      for (const detail of delta.reasoning_details)
        if (isRecord(detail)) characters += this.detail(c, detail);
    if (Array.isArray(delta.tool_calls))
      for (const call of delta.tool_calls) if (isRecord(call)) characters += this.toolCall(c, call);
    if (characters > 0) {
      const at = this.now();
      this.facts.first_token_ms ??= at;
      this.facts.last_token_ms = at;
      this.facts.characters += characters;
    }
  }

  /** A reasoning_details delta: a new item, or more text of the item at its index. */
  private detail(c: ChoiceParts, detail: Record<string, unknown>): number {
    const same =
      typeof detail.index === 'number'
        ? c.reasoning_details.find((d) => d.index === detail.index && d.type === detail.type)
        : undefined;
    let characters = 0;
    if (!same) {
      c.reasoning_details.push({ ...detail });
      for (const key of ['text', 'summary', 'data'])
        if (typeof detail[key] === 'string') characters += detail[key].length;
      return Math.max(characters, 1);
    }
    for (const key of ['text', 'summary', 'data'])
      if (typeof detail[key] === 'string') {
        same[key] = `${typeof same[key] === 'string' ? same[key] : ''}${detail[key]}`;
        characters += detail[key].length;
      }
    for (const [key, value] of Object.entries(detail)) if (!(key in same)) same[key] = value;
    return characters;
  }

  /** A tool_calls delta: a call's id, type and name when it starts, then pieces of its arguments. */
  private toolCall(c: ChoiceParts, delta: Record<string, unknown>): number {
    const index = typeof delta.index === 'number' ? delta.index : c.tool_calls.size;
    let call = c.tool_calls.get(index);
    if (!call) {
      call = { name: '', arguments: [] };
      c.tool_calls.set(index, call);
    }
    if (delta.id !== undefined && delta.id !== null) call.id = delta.id;
    if (delta.type !== undefined && delta.type !== null) call.type = delta.type;
    const fn = isRecord(delta.function) ? delta.function : {};
    let characters = 0;
    if (typeof fn.name === 'string' && fn.name !== '') {
      call.name += fn.name;
      characters += fn.name.length;
    }
    if (typeof fn.arguments === 'string' && fn.arguments !== '') {
      call.arguments.push(fn.arguments);
      characters += fn.arguments.length;
    }
    return characters;
  }
}
