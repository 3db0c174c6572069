import { LATENCY_SKETCH_SCHEMA, type LatencySketch, latencySketch } from '../../stats/sketch.js';
import { countOf } from '../../util/numbers.js';
import type { DetailRow, Fold, RecordedField, RecordedTolerance } from '../field.js';
import { count } from '../read.js';
import { reasoningTokens } from './reasoning-tokens.js';
import type { FieldDrift } from '../served-change.js';
import type { DriftKindRow } from '../severity.js';
import { latencyTolerance, type Timing, TimingTally, type TimingTolerance } from '../timing-drift.js';

/** A streamed answer's timing, as a sample keeps it. */
export interface SampleStream {
  /** From the request's start to its first token (a content, reasoning, refusal or tool-call delta); null: none came. */
  first_token_ms: number | null;
  /** To its last token. */
  last_token_ms: number | null;
  chunks: number;
  /**
   * Completion tokens over the time from the first token to the last; null when either is
   * unknown or the generation took less than MIN_GENERATION_MS.
   */
  tokens_per_s: number | null;
}

/** A case's streamed samples: how many, and their times to first token and throughputs as sketches (p50, p95, a sample). */
export interface CaseStream {
  samples: number;
  ttft_ms: LatencySketch | null;
  tokens_per_s: LatencySketch | null;
}

const KINDS = {
  ttft_changed: { severity: 'warn', candidate: 'info', better: 'info' },
  throughput_changed: { severity: 'warn', candidate: 'info', better: 'info' },
} as const satisfies Record<string, DriftKindRow>;

/** Time to first token, compared as latency is: higher is slower. */
const TTFT: Timing<'ttft_changed'> = {
  kind: 'ttft_changed',
  row: KINDS.ttft_changed,
  noun: 'time to first token',
  unit: 'ms',
  higherIsSlower: true,
};

/** Tokens per second: lower is slower. */
const THROUGHPUT: Timing<'throughput_changed'> = {
  kind: 'throughput_changed',
  row: KINDS.throughput_changed,
  noun: 'throughput',
  unit: 'tokens/s',
  higherIsSlower: false,
};

/** Tokens per second a throughput must move by, beside the share (a slow model's 10 → 7 is noise). */
const THROUGHPUT_ABSOLUTE = 5;

/**
 * How far a time to first token must move: as far as a latency (the suite's or case's
 * `drift.latency`, by default ±50 % and 200 ms); throughput by the same share and
 * THROUGHPUT_ABSOLUTE.
 */
const ttftTolerance = (t: RecordedTolerance): TimingTolerance => latencyTolerance(t.latency);
const throughputTolerance = (t: RecordedTolerance): TimingTolerance => ({
  ...latencyTolerance(t.latency),
  absolute: THROUGHPUT_ABSOLUTE,
});

/**
 * Shorter generations give no throughput: a short answer's tokens arrive in a chunk or two,
 * so tokens over a few milliseconds measures the network's batching, not the model.
 */
const MIN_GENERATION_MS = 50;

const nullableNumber = { type: ['number', 'null'] };
const sketchSchema = { ...LATENCY_SKETCH_SCHEMA, type: ['object', 'null'] };

/** The streamed samples' times to first token and throughputs, folded into a CaseStream (null: none streamed). */
function streamed(): Fold<SampleStream, CaseStream | null> {
  return {
    schema: () => ({
      type: ['object', 'null'],
      required: ['samples', 'ttft_ms', 'tokens_per_s'],
      properties: {
        samples: { type: 'integer', minimum: 1 },
        ttft_ms: sketchSchema,
        tokens_per_s: sketchSchema,
      },
    }),
    state: {
      start: () => null,
      add: (state, value) => {
        const s = (state as { n: number; ttft: number[]; tps: number[] } | null) ?? {
          n: 0,
          ttft: [],
          tps: [],
        };
        s.n++;
        if (value.first_token_ms !== null) s.ttft.push(value.first_token_ms);
        if (value.tokens_per_s !== null) s.tps.push(value.tokens_per_s);
        return s;
      },
    },
    result: (state) => {
      const s = state as { n: number; ttft: number[]; tps: number[] } | null;
      return s === null
        ? null
        : { samples: s.n, ttft_ms: latencySketch(s.ttft), tokens_per_s: latencySketch(s.tps) };
    },
  };
}

/** `p50 420 ms · p95 800 ms`. */
const figures = (sketch: LatencySketch, unit: string): string =>
  `p50 ${sketch.p50} ${unit} · p95 ${sketch.p95} ${unit}`;

/**
 * `p50 420 ms · p95 800 ms (10 samples) · baseline p50 300 ms · p95 500 ms (10 samples)`:
 * tonight's figures with the baseline's beside them, marked when the case's drift says this
 * timing moved the slow way (its `kind` of warn or fail severity).
 */
function figuresRow(
  term: string,
  sketch: LatencySketch | null | undefined,
  baseline: LatencySketch | null | undefined,
  unit: string,
  moved: boolean,
): DetailRow {
  if (!sketch) return { term, text: null };
  const n = (s: LatencySketch) => countOf(s.n, 'sample');
  const then = baseline ? ` · baseline ${figures(baseline, unit)} (${n(baseline)})` : '';
  return { term, text: `${figures(sketch, unit)} (${n(sketch)})${then}`, ...(moved ? { mark: 'warn' } : {}) };
}

/** Whether the case entry's drift holds this kind at warn or fail. */
function moved(entry: Readonly<Record<string, unknown>>, kind: keyof typeof KINDS): boolean {
  const drift = entry.drift as readonly { kind: string; severity: string }[] | undefined;
  return drift?.some((d) => d.kind === kind && d.severity !== 'info') ?? false;
}

/**
 * `stream`: when a streamed answer's tokens came (`params.stream: true`): its time to first
 * token, to its last, its chunks and its throughput. A case keeps the p50 and p95 of each as
 * a latency is kept (its entry's `streaming`), its baseline the same, and a suite's times to first token and
 * throughputs are compared with the baseline's by the timing test latency_changed uses
 * (record/timing-drift.ts): `ttft_changed`, `throughput_changed`.
 */
export const stream = {
  schema: {
    type: 'object',
    required: ['first_token_ms', 'last_token_ms', 'chunks', 'tokens_per_s'],
    properties: {
      first_token_ms: nullableNumber,
      last_token_ms: nullableNumber,
      chunks: { type: 'integer', minimum: 0 },
      tokens_per_s: nullableNumber,
    },
  },
  extract: (answer) => {
    const { stream: timing, body, message } = answer;
    if (!timing) return null;
    const usage = body.usage as Record<string, unknown> | undefined;
    const completion = count(usage?.completion_tokens);
    // Tokens the model thought without streaming them (OpenAI's reasoning models) came before
    // the first token, not between it and the last: counted, they overstate the throughput.
    const hidden =
      typeof message?.reasoning === 'string' && message.reasoning !== ''
        ? 0
        : (reasoningTokens.extract(answer) ?? 0);
    const tokens = completion === null ? null : completion - hidden;
    const { first_token_ms: first, last_token_ms: last } = timing;
    const ms = first !== null && last !== null ? last - first : 0;
    return {
      first_token_ms: first,
      last_token_ms: last,
      chunks: timing.chunks,
      tokens_per_s:
        tokens !== null && tokens > 0 && ms >= MIN_GENERATION_MS
          ? Math.round((tokens / ms) * 10_000) / 10
          : null,
    };
  },
  case: { streaming: streamed() },
  baseline: { from: 'streaming' as const },
  detail: {
    at: 'usage',
    // Tonight's figures with the baseline's beside them.
    rows: (c, baseline) => {
      const s = c.streaming as CaseStream | null | undefined;
      return [
        figuresRow('time to first token', s?.ttft_ms, baseline?.ttft_ms, 'ms', moved(c, 'ttft_changed')),
        figuresRow(
          'tokens per second',
          s?.tokens_per_s,
          baseline?.tokens_per_s,
          'tokens/s',
          moved(c, 'throughput_changed'),
        ),
      ];
    },
    // A streamed case says so in its row: its timings are a stream's.
    label: (c) => (c.streaming ? 'streamed' : null),
  },
  drift: {
    kinds: KINDS,
    // Timings are tested over the suite (a rank test per case, Holm-adjusted; a sign test for the suite).
    suite: (cases, { alpha, candidate = false, tolerance }) => {
      const ttft = new TimingTally(TTFT);
      const throughput = new TimingTally(THROUGHPUT);
      // A case's timing is tallied when both sides have one, held to the case's tolerance.
      const add = (
        tally: TimingTally<string>,
        id: string,
        then: LatencySketch | null,
        now: LatencySketch | null,
        limit: TimingTolerance,
      ) => {
        if (then && now) tally.add({ case: id, current: now.sample, baseline: then, tolerance: limit });
      };
      for (const c of cases) {
        const now = c.current.streaming as CaseStream | null | undefined;
        if (!now || !c.baseline) continue;
        add(ttft, c.case, c.baseline.ttft_ms, now.ttft_ms, ttftTolerance(c.tolerance));
        add(throughput, c.case, c.baseline.tokens_per_s, now.tokens_per_s, throughputTolerance(c.tolerance));
      }
      const options = { alpha, candidate };
      const a = ttft.analyse({ ...options, suite: ttftTolerance(tolerance) });
      const b = throughput.analyse({ ...options, suite: throughputTolerance(tolerance) });
      const byCase = new Map<string, FieldDrift[]>();
      for (const analysis of [a, b])
        for (const [id, drift] of analysis.caseDrift) byCase.set(id, [...(byCase.get(id) ?? []), drift]);
      return { cases: byCase, suite: [a.suiteDrift, b.suiteDrift].filter((d) => d !== null) };
    },
  },
} satisfies RecordedField<SampleStream, CaseStream>;
