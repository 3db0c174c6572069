import { describe, expect, it } from 'vitest';
import type { SimFlavour } from '../../src/adapters/index.js';
import { tokensIn } from '../../src/sim/answer.js';
import { findDirectModel, findRouterModel } from '../../src/sim/catalog.js';
import { handleCompletion, type SimConfig } from '../../src/sim/completion.js';
import { generateSimKey } from '../../src/sim/server.js';
import type { SimStream } from '../../src/sim/reply.js';
import { SimState } from '../../src/sim/state.js';

// The simulator's pace, read from the plan of writes it makes (each write's pause after the
// one before), not from a clock: after the first token a model generates at its rate — each
// chunk comes the time its tokens take after the one before — slow_first_token moves only the
// first token, and a whole answer comes when a stream of it would send its first token (the
// fault pauses included, the generation not: plain answers stay as quick as they were).

const CONFIG: SimConfig = {
  latencyMs: 40,
  routerKeys: null,
  directKeys: null,
  creditAfter: null,
  budgetAfter: null,
  aliasMoveAfter: null,
  echoKey: false,
};
const KEYS: Record<SimFlavour, string> = {
  router: generateSimKey('router'),
  direct: generateSimKey('direct'),
};
const MODEL: Record<SimFlavour, string> = { router: 'openai/gpt-4o-mini', direct: 'kimi-k2-0905-preview' };
/** The catalog's rates of those models (as their default providers serve them). */
const RATE: Record<SimFlavour, number> = {
  router: findRouterModel(MODEL.router)!.tokensPerS,
  direct: findDirectModel(MODEL.direct)!.tokensPerS,
};
const REPLY =
  'Refunds are accepted within thirty days of purchase, with the receipt; exchanges within sixty.';

/** One request handled on a fresh simulator state of seed 1 (so two calls draw the same coins). */
function handle(
  kind: SimFlavour,
  o: { stream?: boolean; directive?: Record<string, unknown>; body?: Record<string, unknown> } = {},
) {
  return handleCompletion(
    kind,
    CONFIG,
    new SimState(1),
    {
      authorization: `Bearer ${KEYS[kind]}`,
      directive: JSON.stringify({ reply: REPLY, ...o.directive }),
    },
    JSON.stringify({
      model: MODEL[kind],
      messages: [{ role: 'user', content: 'What is the refund policy?' }],
      ...(o.stream ? { stream: true, stream_options: { include_usage: true } } : {}),
      ...o.body,
    }),
  );
}

function streamed(kind: SimFlavour, o: Parameters<typeof handle>[1] = {}): SimStream {
  const { reply } = handle(kind, { ...o, stream: true });
  if (reply.action !== 'stream') throw new Error(`expected a stream, got ${reply.action}`);
  return reply;
}

/** The text a write adds to the answer (its content, reasoning or arguments), '' for any other write. */
function textOf(bytes: Buffer): string {
  const line = bytes.toString('utf8');
  if (!line.startsWith('data: {')) return '';
  const chunk = JSON.parse(line.slice('data: '.length)) as {
    choices?: { delta?: { content?: string | null; reasoning?: string } }[];
  };
  const delta = chunk.choices?.[0]?.delta;
  return delta?.reasoning ?? delta?.content ?? '';
}

/** The writes that carry a piece of the answer: the pause before each and its text. */
function pieces(s: SimStream): { afterMs: number; text: string }[] {
  return s.writes.map((w) => ({ afterMs: w.afterMs, text: textOf(w.bytes) })).filter((p) => p.text !== '');
}

/** When each write goes out, from the headers on. */
const total = (s: SimStream) => s.writes.reduce((ms, w) => ms + w.afterMs, 0);

describe("the simulator's pace", () => {
  it.each(['router', 'direct'] as const)(
    '%s: after the first token, each chunk comes its tokens’ time at the rate after the one before',
    (kind) => {
      for (const rate of [50, 400]) {
        const [first, ...rest] = pieces(streamed(kind, { directive: { tokens_per_s: rate } }));
        expect(first!.text + rest.map((p) => p.text).join('')).toBe(REPLY);
        expect(rest.length).toBeGreaterThan(5);
        for (const p of rest) expect(p.afterMs).toBeCloseTo((tokensIn(p.text) / rate) * 1000, 9);
      }
    },
  );

  it("without a directive, the rate is the serving provider's: Groq three times DeepInfra's", () => {
    /** Milliseconds per token after the first, over the whole generation. */
    const msPerToken = (provider: string) => {
      const [, ...rest] = pieces(
        streamed('router', {
          directive: { reply: REPLY },
          body: {
            model: 'meta-llama/llama-3.3-70b-instruct',
            provider: { only: [provider], allow_fallbacks: false },
          },
        }),
      );
      const tokens = rest.reduce((n, p) => n + tokensIn(p.text), 0);
      return rest.reduce((ms, p) => ms + p.afterMs, 0) / tokens;
    };
    expect(msPerToken('deepinfra')).toBeCloseTo(1000 / 100, 9);
    expect(msPerToken('groq')).toBeCloseTo(1000 / 300, 9);
  });

  it('slow_first_token delays the first token only: every chunk after it keeps its pause', () => {
    const normal = streamed('router');
    const slow = streamed('router', { directive: { stream_fault: 'slow_first_token' } });
    const [, ...nRest] = pieces(normal);
    const [, ...sRest] = pieces(slow);
    expect(sRest).toEqual(nRest);
    expect(nRest.every((p) => p.afterMs > 0)).toBe(true);
    // The first token three times the latency later, and at least half a second later.
    const firstToken = (s: SimStream) =>
      total({ ...s, writes: s.writes.slice(0, s.writes.findIndex((w) => textOf(w.bytes) !== '') + 1) });
    expect(firstToken(normal)).toBe(CONFIG.latencyMs);
    expect(firstToken(slow)).toBe(CONFIG.latencyMs + 500);
  });

  it.each(['router', 'direct'] as const)(
    '%s: a whole answer comes when its stream would send its first token, after the same fault pauses; the stream adds its generation',
    (kind) => {
      const directives = [
        {},
        { delay_ms: 250 },
        { tokens_per_s: 37 },
        { stream_fault: 'slow_first_token' },
        { stream_fault: 'stall', stall_ms: 3000 },
        { stream_fault: 'error_after_content' },
        { stream_fault: 'keepalive' },
      ];
      for (const directive of directives) {
        const whole = handle(kind, { directive });
        const stream = streamed(kind, { directive });
        const [, ...generated] = pieces(stream);
        const rate = (directive as { tokens_per_s?: number }).tokens_per_s ?? RATE[kind];
        const generation = generated.reduce((ms, p) => ms + (tokensIn(p.text) / rate) * 1000, 0);
        expect(whole.reply.action, JSON.stringify(directive)).toBe('respond');
        expect(whole.delayMs, JSON.stringify(directive)).toBeCloseTo(total(stream) - generation, 6);
      }
      // The rate is the stream's alone: a plain answer does not wait for the generation.
      expect(handle(kind, { directive: { tokens_per_s: 37 } }).delayMs).toBe(CONFIG.latencyMs);
      expect(handle(kind, { directive: { stream_fault: 'stall', stall_ms: 3000 } }).delayMs).toBe(
        CONFIG.latencyMs + 3000,
      );
    },
  );
});
