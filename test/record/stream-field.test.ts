import { describe, expect, it } from 'vitest';
import { stream } from '../../src/record/fields/stream.js';
import type { RecordedTolerance } from '../../src/record/field.js';
import { DEFAULT_TOLERANCE } from '../../src/fold/drift/tolerance.js';
import { latencySketch } from '../../src/stats/sketch.js';
import { createRng as seededRandom } from '../../src/stats/random.js';

// The `stream` recorded field: what a streamed sample keeps, and the suite's time to first
// token and throughput compared with the baseline's.

const answer = (completion_tokens: number | null, first: number | null, last: number | null) =>
  stream.extract({
    body: completion_tokens === null ? {} : { usage: { completion_tokens } },
    choice: null,
    message: null,
    params: null,
    stream: { first_token_ms: first, last_token_ms: last, chunks: 12 },
  });

describe('stream: a sample', () => {
  it('keeps when its first and last token came, its chunks, and its tokens per second', () => {
    expect(answer(100, 400, 2400)).toEqual({
      first_token_ms: 400,
      last_token_ms: 2400,
      chunks: 12,
      tokens_per_s: 50,
    });
  });

  it('gives no throughput without usage, without tokens, or for a generation too short to time', () => {
    expect(answer(null, 400, 2400)!.tokens_per_s).toBeNull();
    expect(answer(0, 400, 2400)!.tokens_per_s).toBeNull();
    expect(answer(10, 400, 420)!.tokens_per_s).toBeNull();
    expect(answer(10, null, null)!.tokens_per_s).toBeNull();
  });

  it('counts the reasoning tokens a model thought without streaming them out of its throughput, not those it streamed', () => {
    const usage = { completion_tokens: 1100, completion_tokens_details: { reasoning_tokens: 1000 } };
    const timed = (message: Record<string, unknown> | null) =>
      stream.extract({
        body: { usage },
        choice: null,
        message,
        params: null,
        stream: { first_token_ms: 3000, last_token_ms: 4000, chunks: 30 },
      })!.tokens_per_s;
    // Hidden (OpenAI's reasoning models): 100 answer tokens over the second they streamed in.
    expect(timed({ role: 'assistant', content: 'x' })).toBe(100);
    expect(timed(null)).toBe(100);
    // Streamed as reasoning deltas (the router's): every token came in that second.
    expect(timed({ role: 'assistant', content: 'x', reasoning: 'I add two and two.' })).toBe(1100);
  });

  it('is absent on an answer that was not streamed', () => {
    expect(stream.extract({ body: {}, choice: null, message: null, params: null })).toBeNull();
  });
});

/** A case's streamed samples (ttft around `ttft` ms, throughput around `tps`), as the entry and the baseline keep them. */
function caseStream(random: () => number, n: number, ttft: number, tps: number) {
  const draw = (median: number) =>
    Array.from({ length: n }, () =>
      Math.round(median * Math.exp(0.3 * (random() + random() + random() - 1.5))),
    );
  return { samples: n, ttft_ms: latencySketch(draw(ttft)), tokens_per_s: latencySketch(draw(tps)) };
}

function suiteDrift(
  night: (i: number, random: () => number) => ReturnType<typeof caseStream>,
  seed = 1,
  tolerance: RecordedTolerance = DEFAULT_TOLERANCE,
) {
  const random = seededRandom(seed);
  const cases = Array.from({ length: 20 }, (_, i) => ({
    case: `c${i}`,
    baseline: caseStream(random, 10, 400, 60),
    current: { streaming: night(i, random) },
    tolerance,
  }));
  return stream.drift.suite(cases, { alpha: 0.05, tolerance });
}

describe('stream: drift over a suite', () => {
  it('flags a time to first token twice as slow, per case and for the suite', () => {
    const drift = suiteDrift((_, random) => caseStream(random, 10, 800, 60));
    expect(drift.suite.map((d) => d.kind)).toContain('ttft_changed');
    const flagged = [...drift.cases.values()].flat().filter((d) => d.kind === 'ttft_changed');
    expect(flagged.length).toBeGreaterThan(10);
    expect(flagged[0]!.message).toMatch(/^time to first token slower: p50 \d+ → \d+ ms/);
    expect(flagged[0]!.severity).toBe('warn');
  });

  it('flags throughput that halved, and says nothing of a night like its baseline', () => {
    const slower = suiteDrift((_, random) => caseStream(random, 10, 400, 20));
    expect(slower.suite.map((d) => [d.kind, d.message.split(':')[0]])).toContainEqual([
      'throughput_changed',
      'suite throughput slower over 20 cases present in both',
    ]);
    const same = suiteDrift((_, random) => caseStream(random, 10, 400, 60), 7);
    expect(same.suite).toEqual([]);
    expect([...same.cases.values()].flat()).toEqual([]);
  });

  it("holds a time to first token to the suite's latency tolerance: a 2× slowdown within a wider one is no drift", () => {
    const wide = { ...DEFAULT_TOLERANCE, latency: { ...DEFAULT_TOLERANCE.latency, relative: 1.5 } };
    const drift = suiteDrift((_, random) => caseStream(random, 10, 800, 60), 1, wide);
    expect([...drift.suite, ...[...drift.cases.values()].flat()].map((d) => d.kind)).not.toContain(
      'ttft_changed',
    );
    const fail = {
      ...DEFAULT_TOLERANCE,
      latency: { ...DEFAULT_TOLERANCE.latency, severity: 'fail' as const },
    };
    const failing = suiteDrift((_, random) => caseStream(random, 10, 800, 60), 1, fail);
    expect(failing.suite.find((d) => d.kind === 'ttft_changed')!.severity).toBe('fail');
  });

  it('weighs a candidate’s slower first token as info', () => {
    const random = seededRandom(3);
    const cases = Array.from({ length: 8 }, (_, i) => ({
      case: `c${i}`,
      baseline: caseStream(random, 10, 400, 60),
      current: { streaming: caseStream(random, 10, 1200, 60) },
      tolerance: DEFAULT_TOLERANCE,
    }));
    const drift = stream.drift.suite(cases, { alpha: 0.05, candidate: true, tolerance: DEFAULT_TOLERANCE });
    expect(drift.suite.find((d) => d.kind === 'ttft_changed')!.severity).toBe('info');
  });
});
