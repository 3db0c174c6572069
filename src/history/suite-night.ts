import { nearestRank } from '../stats/nearest-rank.js';
import type { HistoryCaseInput } from '../stored/history/types.js';

/**
 * What the trend page reads of one suite's cases on one night: their sums, their latency
 * percentiles, their tool-call counts, their streamed cases' time to first token, and the
 * cases whose latency or time to first token changed.
 */
export interface SuiteNight {
  /** Case lines of the suite that night. */
  cases: number;
  passes: number;
  samples: number;
  /** USD over the cases that reported a cost, and how many did. */
  cost: number;
  costed: number;
  /** Total tokens over the cases that reported usage, and how many did. */
  tokens: number;
  tokened: number;
  /** Median of the cases' p50 latency, and the 95th percentile of their p95 (null: none timed). */
  p50: number | null;
  p95: number | null;
  /** [answered, triggered, valid] summed over the cases with tools; null when none had any. */
  tools: [number, number, number] | null;
  /** [samples, steps, within max_steps] summed over the conversations; null when none was one. */
  loops: [number, number, number] | null;
  /** Median of the streamed cases' median time to first token, and how many were streamed (null, 0: none). */
  ttft: number | null;
  streamed: number;
  /** Cases whose latency changed against the baseline, and the first of them. */
  slower: number;
  firstSlower: string | null;
  /** Cases whose time to first token changed (ttft_changed), and the first of them. */
  ttftChanged: number;
  firstTtftChanged: string | null;
}

/** One night's case lines added up by suite as they are read; `close` gives each suite's figures. */
export class SuiteNightTally {
  private readonly suites = new Map<
    string,
    SuiteNight & { p50s: number[]; p95s: number[]; ttfts: number[] }
  >();

  add(
    c: Pick<
      HistoryCaseInput,
      | 'suite'
      | 'case'
      | 'passes'
      | 'samples'
      | 'cost'
      | 'tokens'
      | 'latency_p50_ms'
      | 'latency_p95_ms'
      | 'tools'
      | 'loop'
      | 'ttft_p50_ms'
      | 'drift_kinds'
    >,
  ): void {
    let s = this.suites.get(c.suite);
    if (!s) {
      s = {
        cases: 0,
        passes: 0,
        samples: 0,
        cost: 0,
        costed: 0,
        tokens: 0,
        tokened: 0,
        p50: null,
        p95: null,
        tools: null,
        loops: null,
        ttft: null,
        streamed: 0,
        slower: 0,
        firstSlower: null,
        ttftChanged: 0,
        firstTtftChanged: null,
        p50s: [],
        p95s: [],
        ttfts: [],
      };
      this.suites.set(c.suite, s);
    }
    s.cases++;
    s.passes += c.passes;
    s.samples += c.samples;
    if (c.cost !== null) {
      s.cost += c.cost;
      s.costed++;
    }
    if (c.tokens !== null) {
      s.tokens += c.tokens.total;
      s.tokened++;
    }
    if (c.latency_p50_ms !== null) s.p50s.push(c.latency_p50_ms);
    if (c.latency_p95_ms !== null) s.p95s.push(c.latency_p95_ms);
    // Truthy, not !== null: a library caller's case written before `tools` existed has none.
    if (c.tools) {
      const t = (s.tools ??= [0, 0, 0]);
      t[0] += c.tools.answered;
      t[1] += c.tools.triggered;
      t[2] += c.tools.valid;
    }
    if (c.loop) {
      const l = (s.loops ??= [0, 0, 0]);
      l[0] += c.samples;
      l[1] += c.loop.steps;
      l[2] += c.loop.within;
    }
    if (c.ttft_p50_ms != null) s.ttfts.push(c.ttft_p50_ms);
    if (c.drift_kinds.includes('latency_changed')) {
      s.slower++;
      s.firstSlower ??= c.case;
    }
    if (c.drift_kinds.includes('ttft_changed')) {
      s.ttftChanged++;
      s.firstTtftChanged ??= c.case;
    }
  }

  /** Each suite's figures for the night (the latencies and times to first token kept only as their percentiles). */
  close(): Map<string, SuiteNight> {
    const out = new Map<string, SuiteNight>();
    for (const [suite, { p50s, p95s, ttfts, ...figures }] of this.suites)
      out.set(suite, {
        ...figures,
        p50: nearestRank(p50s, 0.5),
        p95: nearestRank(p95s, 0.95),
        ttft: nearestRank(ttfts, 0.5),
        streamed: ttfts.length,
      });
    return out;
  }
}
