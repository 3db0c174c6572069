import { describe, expect, it } from 'vitest';
import { StreamReader } from '../../src/service/stream-read.js';
import { createRedactor } from '../../src/service/redact.js';
import { streamAnswer } from '../../src/sim/stream.js';

// The stream reader at the edge: a streamed answer adds up to the body a plain answer would
// have had, however its bytes were cut into pieces on the way.

const encoder = new TextEncoder();

/** Reads `bytes` in the given pieces; the clock counts the pieces fed so far. */
function read(bytes: Uint8Array, cuts: number[] = [], limits = { maxBytes: 1 << 20 }) {
  let fed = 0;
  const reader = new StreamReader(limits, () => fed);
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    fed++;
    if (!reader.feed(bytes.subarray(from, to))) break;
    from = to;
  }
  return { body: reader.body(), facts: reader.facts, stopped: reader.stopped };
}

/** The simulator's stream of a plain answer (the services' documented chunk shapes), its writes joined. */
function simStream(kind: 'router' | 'direct', body: Record<string, unknown>): Uint8Array {
  const stream = streamAnswer(
    kind,
    { headers: {}, body, broken: false, usable: true },
    { firstTokenMs: 0, tokensPerS: 100, stallMs: 0, includeUsage: true, faults: new Set() },
  );
  return new Uint8Array(Buffer.concat(stream.writes.map((w) => w.bytes)));
}

const answer = (message: Record<string, unknown>, finish = 'stop') => ({
  id: 'gen-1',
  object: 'chat.completion',
  model: 'moonshotai/kimi-k2',
  provider: 'Moonshot AI',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', ...message },
      finish_reason: finish,
      native_finish_reason: finish,
    },
  ],
  usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19, cost: 0.0001 },
});

const sse = (...events: (Record<string, unknown> | string)[]) =>
  encoder.encode(
    events
      .map((e) =>
        typeof e === 'string'
          ? e.startsWith(':')
            ? `${e}\n\n`
            : `data: ${e}\n\n`
          : `data: ${JSON.stringify(e)}\n\n`,
      )
      .join(''),
  );
const delta = (d: Record<string, unknown>, finish: string | null = null) => ({
  id: 'gen-2',
  model: 'openai/gpt-4o',
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});

const ANSWERS = {
  text: answer({ content: 'Refunds within 30 days — 返金は30日以内 🎉.' }),
  tools: answer(
    {
      content: null,
      tool_calls: [
        {
          id: 'call_a',
          type: 'function',
          function: { name: 'lookup_order', arguments: '{"order_id":"A-1001","note":"é ✓"}' },
        },
        {
          id: 'call_b',
          type: 'function',
          function: { name: 'check_policy', arguments: '{"sku":"KETTLE-2"}' },
        },
      ],
    },
    'tool_calls',
  ),
  reasoning: answer(
    {
      content: null,
      reasoning: 'I should look it up.',
      reasoning_details: [
        { type: 'reasoning.text', text: 'I should look it up.', format: 'unknown', index: 0 },
      ],
      tool_calls: [
        {
          id: 'call_c',
          type: 'function',
          function: { name: 'lookup_order', arguments: '{"order_id":"A-1"}' },
        },
      ],
    },
    'tool_calls',
  ),
  refusal: answer({ content: null, refusal: 'I cannot help with that.' }),
};

describe('StreamReader', () => {
  for (const [name, body] of Object.entries(ANSWERS))
    for (const kind of ['router', 'direct'] as const)
      it(`adds a ${kind} stream of a ${name} answer up to the plain answer, split at every byte`, () => {
        const bytes = simStream(kind, body);
        const whole = read(bytes);
        expect(whole.stopped).toBeNull();
        // native_finish_reason is the router's own: a direct stream carries none.
        const choices =
          kind === 'router'
            ? body.choices
            : body.choices.map(({ native_finish_reason: _, ...choice }) => choice);
        expect(whole.body.choices).toEqual(choices);
        expect(whole.body.usage).toEqual(body.usage);
        expect(whole.body).toMatchObject({ id: body.id, model: body.model });
        if (kind === 'router') expect(whole.body.provider).toBe(body.provider);
        expect(whole.facts).toMatchObject({
          done: true,
          finished: true,
          comments: kind === 'router' ? 1 : 0,
        });
        for (let cut = 1; cut < bytes.length; cut++) {
          const split = read(bytes, [cut]);
          expect(split.body).toEqual(whole.body);
          expect({ ...split.facts, first_token_ms: 0, last_token_ms: 0 }).toEqual({
            ...whole.facts,
            first_token_ms: 0,
            last_token_ms: 0,
          });
        }
        // And a byte at a time.
        const bytewise = read(
          bytes,
          Array.from({ length: bytes.length - 1 }, (_, i) => i + 1),
        );
        expect(bytewise.body).toEqual(whole.body);
      });

  it('times the first token at the first content, not at a keep-alive or a role-only chunk', () => {
    const bytes = [
      sse(': OPENROUTER PROCESSING'),
      sse(delta({ role: 'assistant', content: '' })),
      sse(delta({ content: 'Hel' })),
      sse(delta({ content: 'lo' }, 'stop'), '[DONE]'),
    ];
    let piece = 0;
    const reader = new StreamReader({ maxBytes: 1 << 20 }, () => piece);
    for (const b of bytes) {
      piece++;
      reader.feed(b);
    }
    expect(reader.facts).toEqual({
      first_token_ms: 3,
      last_token_ms: 4,
      chunks: 3,
      comments: 1,
      characters: 5,
      done: true,
      finished: true,
    });
    expect(reader.body().choices).toEqual([
      { index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' },
    ]);
  });

  it('keeps what came of a stream that was cut, with no finish_reason, no [DONE] and no usage', () => {
    const { body, facts } = read(sse(delta({ role: 'assistant', content: 'Partial ans' })));
    expect(body).not.toHaveProperty('usage');
    expect(body.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: 'Partial ans' }, finish_reason: null },
    ]);
    expect(facts).toMatchObject({ done: false, finished: false, chunks: 1, characters: 11 });
  });

  it("keeps an error event's error beside the content that came before it", () => {
    const { body } = read(
      sse(
        delta({ content: 'Half an answer' }),
        {
          id: 'gen-2',
          error: { code: 502, message: 'Provider disconnected' },
          choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
        },
        '[DONE]',
      ),
    );
    expect(body.error).toEqual({ code: 502, message: 'Provider disconnected' });
    expect(body.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: 'Half an answer' }, finish_reason: 'error' },
    ]);
  });

  it('lets the body be redacted once: a key split across two chunks is whole in it', () => {
    const key = `sk-or-v1-${'9f8e7d6c'.repeat(8)}`;
    const bytes = sse(
      delta({ content: `Your key is ${key.slice(0, 20)}` }),
      delta({ content: `${key.slice(20)}, keep it safe.` }, 'stop'),
      '[DONE]',
    );
    for (let cut = 1; cut < bytes.length; cut += 7) {
      const { text, redacted } = createRedactor([key]).redact(JSON.stringify(read(bytes, [cut]).body));
      expect(redacted).toBe(true);
      for (let i = 0; i + 12 <= key.length; i++) expect(text).not.toContain(key.slice(i, i + 12));
    }
  });

  it('stops at its byte cap, at too many events, and at an event that is not JSON', () => {
    const text = sse(
      delta({ content: 'a' }),
      delta({ content: 'b' }),
      delta({ content: 'c' }, 'stop'),
      '[DONE]',
    );
    expect(read(text, [], { maxBytes: 40 }).stopped).toEqual({ kind: 'too_large', bytes: text.length });
    expect(read(text, [], { maxBytes: 1 << 20, maxEvents: 2 } as never).stopped).toEqual({
      kind: 'too_many_events',
      events: 3,
    });
    expect(read(sse(delta({ content: 'a' }), '{"choices": [')).stopped).toEqual({
      kind: 'malformed',
      event: 2,
    });
  });
});
