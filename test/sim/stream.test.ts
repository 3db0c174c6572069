import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import type { SimFlavour } from '../../src/adapters/index.js';
import { SIM_DIRECTIVE_HEADER } from '../../src/sim/protocol.js';
import { KEEPALIVE_BURST } from '../../src/sim/stream.js';
import { generateSimKey, type Simulator, startSimulator } from '../../src/sim/server.js';
import { baseUrl, call, complete, MODEL, stringTool } from './helpers.js';

// The simulator's streams as a client reads them: the raw bytes of each read over a loopback
// socket, in the order they came. When something happens is asserted by the order of events —
// a client's idle timer firing before the next bytes, one stream's first token before
// another's — never by measuring wall time.

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 1 });
});
afterAll(() => sim.close());

const KEYS: Record<SimFlavour, string> = {
  router: generateSimKey('router'),
  direct: generateSimKey('direct'),
};
const PROMPT = 'What is the capital of France?';

/** What happened, in order, across every stream of a test: a read (with the stream's text so far), an idle timer firing, the end. */
interface Mark {
  who: string;
  kind: 'read' | 'idle' | 'end' | 'error';
  bytes?: Buffer;
  /** The stream's text up to and including this read. */
  sofar: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests poke into loosely shaped JSON chunks
type Json = any;
type Event =
  { type: 'comment' } | { type: 'data'; json: Json } | { type: 'done' } | { type: 'broken'; raw: string };

interface Streamed {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  reads: Buffer[];
  text: string;
  events: Event[];
  /** The error the body ended with (a dropped connection), or null when it ended normally. */
  error: Error | null;
  marks: Mark[];
}

/**
 * One request, read as it comes. With `idleMs`, a client idle timer that restarts on every
 * read holding more than keep-alive comments, and marks the timeline each time it fires.
 */
async function stream(o: {
  kind?: SimFlavour;
  body?: Record<string, unknown>;
  content?: string;
  directive?: Record<string, unknown>;
  idleMs?: number;
  who?: string;
  timeline?: Mark[];
  /** Called once the response's headers came. */
  onHeaders?: () => void;
}): Promise<Streamed> {
  const kind = o.kind ?? 'router';
  const who = o.who ?? kind;
  const marks = o.timeline ?? [];
  const headers: Record<string, string> = {
    authorization: `Bearer ${KEYS[kind]}`,
    'content-type': 'application/json',
  };
  if (o.directive) headers[SIM_DIRECTIVE_HEADER] = JSON.stringify(o.directive);
  const res = await request(`${baseUrl(sim, kind)}/chat/completions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      model: MODEL[kind],
      messages: [{ role: 'user', content: o.content ?? PROMPT }],
      stream: true,
      ...o.body,
    }),
  });
  o.onHeaders?.();
  const reads: Buffer[] = [];
  let sofar = '';
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    if (o.idleMs === undefined) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      marks.push({ who, kind: 'idle', sofar });
      arm();
    }, o.idleMs);
  };
  let error: Error | null = null;
  arm();
  try {
    for await (const chunk of res.body) {
      const bytes = Buffer.from(chunk as Uint8Array);
      reads.push(bytes);
      sofar = Buffer.concat(reads).toString('utf8');
      marks.push({ who, kind: 'read', bytes, sofar });
      if (!/^(: [^\n]*\n\n)+$/.test(bytes.toString('utf8'))) arm();
    }
    marks.push({ who, kind: 'end', sofar });
  } catch (e) {
    error = e as Error;
    marks.push({ who, kind: 'error', sofar });
  } finally {
    clearTimeout(timer);
  }
  const text = Buffer.concat(reads).toString('utf8');
  return { status: res.statusCode, headers: res.headers, reads, text, events: eventsOf(text), error, marks };
}

/** The complete events of a stream's text (a last one without its blank line is left out). */
function eventsOf(text: string): Event[] {
  const blocks = text.split('\n\n');
  blocks.pop();
  return blocks.map((block): Event => {
    if (block.startsWith(':')) return { type: 'comment' };
    if (block === 'data: [DONE]') return { type: 'done' };
    try {
      return { type: 'data', json: JSON.parse(block.slice('data: '.length)) };
    } catch {
      return { type: 'broken', raw: block };
    }
  });
}

const data = (s: Streamed): Json[] =>
  s.events.filter((e): e is { type: 'data'; json: Json } => e.type === 'data').map((e) => e.json);
const deltas = (s: Streamed): Json[] => data(s).flatMap((c: Json) => c.choices.map((ch: Json) => ch.delta));
const joined = (s: Streamed, field: string): string =>
  deltas(s)
    .map((d) => d[field] ?? '')
    .join('');
/** The data events that carry a piece of content. */
const contentChunks = (s: Streamed): Json[] => data(s).filter((c) => c.choices[0]?.delta?.content);
const finishes = (s: Streamed): unknown[] =>
  data(s)
    .map((c) => c.choices[0]?.finish_reason)
    .filter((f) => f !== null && f !== undefined);
const usageChunks = (s: Streamed): Json[] => data(s).filter((c) => c.usage);
const comments = (s: Streamed): number => s.events.filter((e) => e.type === 'comment').length;

/** The same request answered whole. */
async function whole(kind: SimFlavour, content = PROMPT, body: Record<string, unknown> = {}) {
  const r = await complete(sim, kind, KEYS[kind], { content, body });
  return r.json;
}

/** Index in the timeline of a stream's first read that brought content. */
const firstContent = (timeline: Mark[], who: string) =>
  timeline.findIndex((m) => m.who === who && m.kind === 'read' && /"content":"[^"]/.test(m.sofar));

describe('streams, as the services send them', () => {
  it('router: a keep-alive comment first, content a word a chunk over several reads, the finish, usage last with empty choices, [DONE]', async () => {
    const s = await stream({});
    const answer = await whole('router');
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toBe('text/event-stream');
    expect(s.headers['x-generation-id']).toMatch(/^gen-/);
    expect(s.text.startsWith(': OPENROUTER PROCESSING\n\n')).toBe(true);
    expect(s.events.at(-1)).toEqual({ type: 'done' });
    const chunks = data(s);
    for (const c of chunks) {
      expect(c).toMatchObject({ object: 'chat.completion.chunk', model: MODEL.router, provider: 'OpenAI' });
      expect(c.system_fingerprint).toMatch(/^fp_/);
      for (const ch of c.choices) expect(ch).toHaveProperty('native_finish_reason');
    }
    expect(contentChunks(s).length).toBeGreaterThan(2);
    expect(joined(s, 'content')).toBe(answer.choices[0].message.content);
    expect(finishes(s)).toEqual(['stop']);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: answer.usage });
    // Sent over time: the comment, each chunk and the end arrived in reads of their own.
    expect(s.reads.length).toBeGreaterThanOrEqual(chunks.length + 2);
    expect(s.reads[0]!.toString()).toBe(': OPENROUTER PROCESSING\n\n');
  });

  it('direct: no comments, a role-only first chunk, usage only when stream_options.include_usage asks (then null on every other chunk)', async () => {
    const plain = await stream({ kind: 'direct' });
    const answer = await whole('direct');
    expect(comments(plain)).toBe(0);
    expect(deltas(plain)[0]).toEqual({ role: 'assistant', content: '', refusal: null });
    expect(plain.reads[0]!.toString()).toContain('"refusal":null');
    expect(contentChunks(plain).length).toBeGreaterThan(2);
    expect(joined(plain, 'content')).toBe(answer.choices[0].message.content);
    expect(usageChunks(plain)).toEqual([]);
    expect(data(plain).some((c) => 'usage' in c)).toBe(false);
    expect(plain.events.at(-1)).toEqual({ type: 'done' });

    const asked = await stream({ kind: 'direct', body: { stream_options: { include_usage: true } } });
    const chunks = data(asked);
    expect(chunks.at(-1)).toEqual(expect.objectContaining({ choices: [], usage: answer.usage }));
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    expect(joined(asked, 'content')).toBe(answer.choices[0].message.content);
  });

  it('direct: stream_options without stream: true is refused as OpenAI refuses it', async () => {
    const r = await complete(sim, 'direct', KEYS.direct, {
      body: { stream_options: { include_usage: true } },
    });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ param: 'stream_options', type: 'invalid_request_error' });
    const router = await complete(sim, 'router', KEYS.router, {
      body: { stream_options: { include_usage: true } },
    });
    expect(router.status).toBe(200);
  });

  it('a refusal streams as refusal pieces; a structured output as pieces of its JSON', async () => {
    for (const kind of ['router', 'direct'] as const) {
      const refusal = await stream({ kind, content: `[sim:fault=refusal] ${PROMPT}` });
      const refused = await whole(kind, `[sim:fault=refusal] ${PROMPT}`);
      expect(joined(refusal, 'refusal')).toBe(refused.choices[0].message.refusal);
      expect(deltas(refusal).filter((d) => d.refusal).length).toBeGreaterThan(2);
      expect(finishes(refusal)).toEqual(['stop']);
    }
    const format = {
      type: 'json_schema',
      json_schema: {
        name: 'order',
        strict: true,
        schema: {
          type: 'object',
          properties: { order_id: { type: 'integer' }, status: { enum: ['open', 'closed'] } },
          required: ['order_id', 'status'],
          additionalProperties: false,
        },
      },
    };
    const s = await stream({
      kind: 'direct',
      content: 'Order 42 is closed',
      body: { response_format: format },
    });
    const answer = await whole('direct', 'Order 42 is closed', { response_format: format });
    expect(contentChunks(s).length).toBeGreaterThan(1);
    expect(joined(s, 'content')).toBe(answer.choices[0].message.content);
    expect(JSON.parse(joined(s, 'content'))).toEqual({ order_id: 42, status: 'closed' });
  });

  it('a reasoning model streams its reasoning first, in pieces that add up to reasoning and reasoning_details', async () => {
    const body = {
      model: 'moonshotai/kimi-k2-thinking',
      tools: [stringTool('lookup_order', 'Look up an order by its id', 'order_id')],
    };
    const content = 'Where is my order "A-1234"?';
    const s = await stream({ body, content });
    const answer = await whole('router', content, body);
    const message = answer.choices[0].message;
    const all = deltas(s);
    const firstCall = all.findIndex((d) => d.tool_calls);
    const reasoning = all.filter((d) => d.reasoning_details);
    expect(reasoning.length).toBeGreaterThan(2);
    expect(all.slice(0, firstCall).every((d) => d.reasoning_details)).toBe(true);
    expect(joined(s, 'reasoning')).toBe(message.reasoning);
    // reasoning_details merged by index: texts concatenated, the signature from the piece that has it.
    const merged = new Map<number, Json>();
    for (const d of reasoning.flatMap((r) => r.reasoning_details)) {
      const to = merged.get(d.index) ?? { ...d, text: '' };
      merged.set(d.index, { ...to, ...d, text: to.text + d.text });
    }
    expect([...merged.values()]).toEqual(message.reasoning_details);
    expect(reasoning.filter((r) => r.reasoning_details[0].signature).length).toBe(1);
    expect(finishes(s)).toEqual(['tool_calls']);
  });

  it('an error inside a 200 answer is the error event with finish_reason "error", and the stream ends; an HTTP error stays one', async () => {
    for (const kind of ['router', 'direct'] as const) {
      const s = await stream({ kind, directive: { fault: 'body_error' } });
      expect(s.status).toBe(200);
      const last = data(s).at(-1);
      expect(last.error).toEqual(expect.objectContaining({ code: 502, message: expect.any(String) }));
      expect(last.choices).toEqual([expect.objectContaining({ finish_reason: 'error' })]);
      expect(s.events.some((e) => e.type === 'done')).toBe(false);
      expect(s.error).toBeNull();

      const limited = await stream({ kind, directive: { fault: 'rate_limited' } });
      expect(limited.status).toBe(429);
      expect(limited.headers['content-type']).toBe('application/json');
      expect(JSON.parse(limited.text).error).toBeDefined();
    }
  });

  it('a request streamed or not gets the same answer from the same seed, coins included', async () => {
    // Streamed and whole on two simulators of one seed: each request's coins (here a schema
    // miss at 50 %) depend on the body without stream and stream_options.
    const tools = [stringTool('get_order_status', 'Look up where an order is', 'order_id')];
    const header = { [SIM_DIRECTIVE_HEADER]: '{"tool_fault":"schema_mismatch","tool_fault_rate":0.5}' };
    const [a, b, c] = await Promise.all([
      startSimulator({ seed: 9 }),
      startSimulator({ seed: 9 }),
      startSimulator({ seed: 9 }),
    ]);
    try {
      const argsOf = async (s: Simulator, n: number, streamed: boolean, spaced = false) => {
        const body = { tools, tool_choice: 'required', ...(streamed ? { stream: true } : {}) };
        const request = {
          model: MODEL.router,
          messages: [{ role: 'user', content: `Where is order A-${n}?` }],
          ...body,
        };
        const r = await call(`${baseUrl(s, 'router')}/chat/completions`, {
          key: KEYS.router,
          headers: header,
          // Spaced out, the JSON as some clients write it (Python's json.dumps puts a space after each , and :).
          body: JSON.stringify(request, null, spaced ? 1 : undefined),
        });
        if (!streamed) return r.json.choices[0].message.tool_calls[0].function.arguments as string;
        return eventsOf(r.text)
          .flatMap((e) => (e.type === 'data' ? (e.json.choices[0]?.delta?.tool_calls ?? []) : []))
          .map((c: Json) => c.function?.arguments ?? '')
          .join('');
      };
      const numbers = Array.from({ length: 12 }, (_, i) => 100 + i);
      const plain = await Promise.all(numbers.map((n) => argsOf(a, n, false)));
      const streamed = await Promise.all(numbers.map((n) => argsOf(b, n, true)));
      expect(streamed).toEqual(plain);
      expect(new Set(plain.map((p) => p.includes('A-'))).size).toBe(2); // some calls missed the schema, some did not
      // The coins read the request, not how its JSON is spaced.
      const spaced = await Promise.all(numbers.map((n) => argsOf(c, n, false, true)));
      expect(spaced).toEqual(plain);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});

/**
 * Two streams started one after the other: the control asks for its first token at 2.9 × 300
 * ms, the other at 300 ms (each with its own request fields). Which one's content came first
 * tells whether the other's first token came more than 2.9 times later than asked: timers of
 * one process fire in the order they are due, however loaded the machine.
 */
async function race(
  control: { body?: Record<string, unknown> },
  other: { body?: Record<string, unknown>; directive?: Record<string, unknown> },
): Promise<'other first' | 'control first'> {
  const timeline: Mark[] = [];
  let started!: () => void;
  const headers = new Promise<void>((resolve) => (started = resolve));
  const first = stream({
    who: 'control',
    body: control.body,
    directive: { delay_ms: 870 },
    timeline,
    onHeaders: started,
  });
  await headers;
  const second = stream({
    who: 'other',
    body: other.body,
    directive: { delay_ms: 300, ...other.directive },
    timeline,
  });
  const [c, o] = await Promise.all([first, second]);
  expect(contentChunks(c).length).toBeGreaterThan(0);
  expect(contentChunks(o).length).toBeGreaterThan(0);
  return firstContent(timeline, 'other') < firstContent(timeline, 'control')
    ? 'other first'
    : 'control first';
}

describe('stream faults', () => {
  it('slow_first_token: the first content comes more than 2.9× later than it would (one process, timers in order)', async () => {
    expect(await race({}, {})).toBe('other first');
    expect(await race({}, { directive: { stream_fault: 'slow_first_token' } })).toBe('control first');
  });

  it('stall: a pause between two chunks outlasts a client idle time-out; the router sends keep-alive comments meanwhile', async () => {
    const s = await stream({
      kind: 'direct',
      directive: { stream_fault: 'stall', stall_ms: 1200 },
      idleMs: 300,
    });
    const answer = await whole('direct');
    expect(joined(s, 'content')).toBe(answer.choices[0].message.content);
    expect(s.events.at(-1)).toEqual({ type: 'done' });
    // The idle timer fired after some content came and before the rest did.
    const idle = s.marks.findIndex((m) => m.kind === 'idle');
    expect(idle).toBeGreaterThan(0);
    const before = eventsOf(s.marks[idle]!.sofar).filter(
      (e) => e.type === 'data' && e.json.choices[0]?.delta?.content,
    );
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(contentChunks(s).length);

    // The router keeps the connection alive during the pause: a comment between two content chunks.
    const r = await stream({ directive: { stream_fault: 'stall', stall_ms: 1200 } });
    const kinds = r.events.map((e) =>
      e.type === 'comment'
        ? 'comment'
        : e.type === 'data' && e.json.choices[0]?.delta?.content
          ? 'content'
          : 'other',
    );
    const middle = kinds.slice(kinds.indexOf('content'), kinds.lastIndexOf('content'));
    expect(middle).toContain('comment');
    // Without the fault nothing pauses: no comment after the first.
    const plain = await stream({});
    expect(comments(plain)).toBe(1);
  });

  it('cut: the connection ends after some content: no finish_reason, no usage, no [DONE]', async () => {
    for (const kind of ['router', 'direct'] as const) {
      const s = await stream({
        kind,
        content: `[sim:stream_fault=cut] ${PROMPT}`,
        body: { stream_options: { include_usage: true } },
      });
      expect(s.status).toBe(200);
      expect(s.error).not.toBeNull();
      expect(contentChunks(s).length).toBeGreaterThan(0);
      expect(finishes(s)).toEqual([]);
      expect(usageChunks(s)).toEqual([]);
      expect(s.events.some((e) => e.type === 'done')).toBe(false);
      const answer = await whole(kind);
      expect(answer.choices[0].message.content.startsWith(joined(s, 'content'))).toBe(true);
    }
  });

  it('error_after_content: content, then the error event (code, message, finish_reason "error"); the stream ends there', async () => {
    for (const kind of ['router', 'direct'] as const) {
      const s = await stream({ kind, directive: { stream_fault: 'error_after_content' } });
      expect(s.status).toBe(200);
      expect(s.error).toBeNull();
      expect(contentChunks(s).length).toBeGreaterThan(0);
      const last = data(s).at(-1);
      expect(last.error).toEqual(
        expect.objectContaining({ code: expect.anything(), message: expect.any(String) }),
      );
      expect(last.choices[0]).toMatchObject({ finish_reason: 'error', delta: { content: '' } });
      expect(s.events.at(-1)).toEqual({ type: 'data', json: last });
      expect(usageChunks(s)).toEqual([]);
    }
  });

  it('error_after_content without stream: the partial content with choices[].error and finish_reason "error"', async () => {
    for (const kind of ['router', 'direct'] as const) {
      const r = await complete(sim, kind, KEYS[kind], {
        content: PROMPT,
        headers: { [SIM_DIRECTIVE_HEADER]: '{"stream_fault":"error_after_content"}' },
      });
      const full = (await whole(kind)).choices[0].message.content as string;
      const choice = r.json.choices[0];
      expect(choice.finish_reason).toBe('error');
      expect(choice.error).toEqual(expect.objectContaining({ message: expect.any(String) }));
      expect(choice.message.content.length).toBeGreaterThan(0);
      expect(choice.message.content.length).toBeLessThan(full.length);
      expect(full.startsWith(choice.message.content)).toBe(true);
    }
  });

  it('keepalive: many comments before the first event, the answer unchanged (also on the direct service)', async () => {
    for (const kind of ['router', 'direct'] as const) {
      const s = await stream({ kind, directive: { stream_fault: 'keepalive' } });
      const firstData = s.events.findIndex((e) => e.type === 'data');
      expect(firstData).toBeGreaterThanOrEqual(KEEPALIVE_BURST);
      expect(s.events.slice(0, firstData).every((e) => e.type === 'comment')).toBe(true);
      expect(joined(s, 'content')).toBe((await whole(kind)).choices[0].message.content);
    }
  });

  it('no_usage: the stream ends normally without its usage chunk', async () => {
    for (const kind of ['router', 'direct'] as const) {
      const body = { stream_options: { include_usage: true } };
      expect(usageChunks(await stream({ kind, body }))).toHaveLength(1);
      const s = await stream({ kind, body, directive: { stream_fault: 'no_usage' } });
      expect(usageChunks(s)).toEqual([]);
      expect(finishes(s)).toEqual(['stop']);
      expect(s.events.at(-1)).toEqual({ type: 'done' });
    }
  });

  it('split_utf8: reads end inside a multi-byte character and inside a tool call’s arguments string; the bytes add up to the same events', async () => {
    const decodes = (b: Buffer) => {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(b);
        return true;
      } catch {
        return false;
      }
    };
    const content = 'Say exactly: Zürich is 🌧 today, naïve café';
    const plain = await stream({ kind: 'direct', content });
    const split = await stream({ kind: 'direct', content, directive: { stream_fault: 'split_utf8' } });
    expect(plain.reads.every(decodes)).toBe(true);
    expect(split.reads.filter((r) => !decodes(r)).length).toBeGreaterThanOrEqual(3);
    expect(joined(split, 'content')).toBe('Zürich is 🌧 today, naïve café');
    expect(joined(split, 'content')).toBe(joined(plain, 'content'));

    const tools = [stringTool('get_weather', 'Current weather for a city', 'city')];
    for (const city of ['Oslo', 'Zürich']) {
      const ask = `What is the weather in "${city}"?`;
      const s = await stream({ content: ask, body: { tools }, directive: { stream_fault: 'split_utf8' } });
      // A read that ends inside the JSON string of a tool call's arguments (no closing quote after its start).
      const insideArguments = s.reads.filter((r) => {
        const text = r.toString('latin1');
        const at = text.lastIndexOf('"arguments":"');
        return at >= 0 && !/[^\\]"/.test(text.slice(at + '"arguments":"'.length - 1));
      });
      expect(insideArguments.length).toBeGreaterThan(0);
      const args = deltas(s)
        .flatMap((d) => d.tool_calls ?? [])
        .map((c: Json) => c.function?.arguments ?? '')
        .join('');
      expect(JSON.parse(args)).toEqual({ city });
    }
  });

  it('faults come by the header, the prompt marker, and at a rate; a bad one is refused', async () => {
    const marker = await stream({ content: `[sim:stream_fault=no_usage] ${PROMPT}` });
    expect(usageChunks(marker)).toEqual([]);
    const never = await stream({ directive: { stream_fault: 'no_usage', stream_fault_rate: 0 } });
    expect(usageChunks(never)).toHaveLength(1);
    const bad = await complete(sim, 'router', KEYS.router, {
      headers: { [SIM_DIRECTIVE_HEADER]: '{"stream_fault":"stutter"}' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(
      /unknown stream_fault "stutter"; expected one of slow_first_token, stall, cut/,
    );
    const long = await complete(sim, 'router', KEYS.router, {
      headers: { [SIM_DIRECTIVE_HEADER]: '{"stall_ms":1.5}' },
    });
    expect(long.json.error.message).toMatch(/stall_ms must be a whole number/);
  });
});

describe('providers that stream differently (standing traits of Claude Sonnet 4.5)', () => {
  const SONNET = 'anthropic/claude-sonnet-4.5';
  const on = (provider: string) => ({
    model: SONNET,
    provider: { order: [provider], allow_fallbacks: false },
  });

  it('Google Vertex is slow to the first token; Anthropic, the default, is not', async () => {
    expect(await race({ body: on('anthropic') }, { body: on('anthropic') })).toBe('other first');
    expect(await race({ body: on('anthropic') }, { body: on('google-vertex') })).toBe('control first');
    const vertex = await stream({ body: on('google-vertex') });
    expect(data(vertex)[0].provider).toBe('Google Vertex');
  });

  it('Amazon Bedrock pauses mid-stream in some streams, Anthropic in none (seeded; the pause shows as keep-alive comments)', async () => {
    const stalled = async (provider: string) => {
      const streams = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          stream({ content: `Tell me about order ${i}`, body: on(provider), directive: { stall_ms: 1100 } }),
        ),
      );
      // A comment after the first data event is the router keeping the connection alive mid-stream.
      return streams.filter((s) =>
        s.events.slice(s.events.findIndex((e) => e.type === 'data')).some((e) => e.type === 'comment'),
      ).length;
    };
    const bedrock = await stalled('amazon-bedrock');
    expect(bedrock).toBeGreaterThan(0);
    expect(bedrock).toBeLessThan(12);
    expect(await stalled('anthropic')).toBe(0);
  });
});
