import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reporter, SuiteEndEvent } from '../../src/fold/reporter.js';
import { openPublished, publishReport } from '../../src/fold/published.js';
import type { ReviewClass } from '../../src/fold/review.js';
import type { Totals } from '../../src/fold/totals.js';
import { jsonReporter } from '../../src/report/json.js';
import { nearestRank } from '../../src/stats/nearest-rank.js';
import type { Baseline } from '../../src/stored/baseline/types.js';
import type { Report } from '../../src/stored/report/types.js';
import type { SampleResult } from '../../src/stored/journal/records.js';
import type { ToolCall } from '../../src/core/tool-calls.js';
import { baselineCase, caseError } from '../baseline/fixtures.js';
import { foldSamples } from '../helpers/fold.js';
import { sampleResult } from '../helpers/results.js';

const call = (valid: boolean): ToolCall => ({
  id: 'call_1',
  name: 'lookup',
  arguments: valid ? '{"q":1}' : '{',
  parsed: valid ? { q: 1 } : null,
  valid,
  ...(valid ? {} : { invalid: 'invalid_json' as const, problem: 'not JSON' }),
});
const failing = [{ type: 'contains' as const, pass: false, message: 'expected "30 days"' }];
const cost = (usd: number) => ({ prompt_tokens: 10, completion_tokens: 30, total_tokens: 40, cost: usd });

/**
 * Two suites: `refunds` with a baseline (a regression, a repeated case with tools, a routing
 * error, a failure, a case the run never reached) and `direct` without one (a timeout, a
 * pass served by another provider).
 */
function samples(): SampleResult[] {
  return [
    // Repeated three times, timed 100, 300, 200; tools called in two of them, one valid.
    ...[100, 300, 200].map((latency, repeat) =>
      sampleResult({
        case: 'tools',
        repeat,
        latency_ms: latency,
        usage: cost(0.001),
        provider: 'OpenAI',
        tool_calls: repeat === 2 ? [] : [call(repeat === 0)],
      } as Partial<SampleResult> & { case: string }),
    ),
    sampleResult({ case: 'regressed', status: 'fail', checks: failing, latency_ms: 50, usage: cost(0.002) }),
    sampleResult({
      case: 'unrouted',
      status: 'error',
      error: caseError('routing', 'no provider serves this model'),
      usage: null,
      latency_ms: 7,
    }),
    sampleResult({ case: 'failing', status: 'fail', checks: failing, latency_ms: 60, usage: null }),
    sampleResult({
      suite: 'direct',
      case: 'slow',
      service: 'direct',
      status: 'error',
      error: caseError('timeout'),
      usage: null,
      latency_ms: 900,
    }),
    sampleResult({
      suite: 'direct',
      case: 'ok',
      service: 'direct',
      latency_ms: 40,
      usage: cost(0.0005),
      provider: 'Azure',
    } as Partial<SampleResult> & { case: string }),
  ];
}

const baseline: Baseline = {
  schema_version: 1,
  suite: 'refunds',
  service: 'router',
  model: 'openai/gpt-4o-mini',
  source_run: 'r0',
  cases: {
    regressed: baselineCase({
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20, cost: 0.001 },
    }),
    failing: baselineCase({ status: 'fail' }),
    unrouted: baselineCase({ status: 'error', error_kind: 'routing' }),
  },
};

interface Folded {
  report: Report;
  reviews: Map<string, ReviewClass>;
  suites: SuiteEndEvent[];
  run: Totals;
}

async function fold(): Promise<Folded> {
  const reviews = new Map<string, ReviewClass>();
  const suites: SuiteEndEvent[] = [];
  let run: Totals | null = null;
  const spy: Reporter = {
    onCase: ({ entry, review }) => {
      reviews.set(entry.id, review);
    },
    onSuiteEnd: (event) => {
      suites.push(event);
    },
    onEnd: async (_head, totals) => {
      run = totals;
      return [];
    },
  };
  const report = await foldSamples(samples(), {
    baselines: { refunds: baseline },
    unsent: { refunds: ['never'] },
    reporters: [spy],
  });
  return { report, reviews, suites, run: run! };
}

describe("the fold's totals, added up as cases are folded", () => {
  let folded: Folded;
  beforeAll(async () => {
    folded = await fold();
  });

  it('hands each case to the reporters with its review class', () => {
    expect(Object.fromEntries(folded.reviews)).toEqual({
      'refunds/tools': 'passed',
      'refunds/regressed': 'regressed',
      'refunds/unrouted': 'errored',
      'refunds/failing': 'failed',
      'refunds/never': 'not_run',
      'direct/slow': 'errored',
      'direct/ok': 'passed',
    });
  });

  it("counts the run's cases one way: the run's counts are report.json's summary", () => {
    const { run, report } = folded;
    expect(run.counts).toEqual(report.summary);
    expect(run.review).toEqual({
      regressed: 1,
      errored: 2,
      failed: 1,
      drift_warn: 0,
      not_run: 1,
      drift_info: 0,
      passed: 2,
    });
    expect(run.outcomes).toEqual({ error: 2, failure: 2, skipped: 1, pass: 2 });
    expect(run.rates).toEqual({ failing: 0, dropped: 0, flaky: 0, new: 1, stable: 0 });
  });

  it('adds up tokens, cost, tool rates, error kinds and latency', () => {
    const { run } = folded;
    expect(run.samples).toBe(8);
    // Usage of every sent sample, errors included (billed); `cost` over the costed cases.
    expect(run.tokens).toEqual({ prompt: 50, completion: 150, total: 200 });
    expect(run.cost).toBeCloseTo(0.001 * 3 + 0.002 + 0.0005, 12);
    expect(run.costed).toBe(3);
    expect(run.tools).toEqual({
      cases: 1,
      answered: 3,
      triggered: 2,
      valid: 1,
      trigger_rate: 2 / 3,
      valid_rate: 0.5,
    });
    expect(run.error_kinds).toEqual({ routing: 1, timeout: 1 });
    // Answered samples only (an error's time says nothing of the model's speed), nearest rank.
    const answered = [100, 300, 200, 50, 60, 40];
    expect(run.latency_ms).toEqual({
      p50: nearestRank(answered, 0.5),
      p95: nearestRank(answered, 0.95),
      samples: 6,
    });
    // JUnit's time: each case's median times its samples.
    expect(run.time_ms).toBe(200 * 3 + 50 + 7 + 60 + 900 + 40);
    expect(run.providers).toEqual([
      { name: 'Azure', cases: 1 },
      { name: 'OpenAI', cases: 1 },
    ]);
    expect(run.models).toEqual([{ name: 'openai/gpt-4o-mini', cases: 6 }]);
    expect(run.unrouted).toEqual([
      {
        suite: 'refunds',
        model: 'openai/gpt-4o-mini',
        cases: 1,
        total: 5,
        message: 'no provider serves this model',
      },
    ]);
    // A case counted once per kind: the three not in a baseline are new (an error too).
    expect([...run.drift_kinds]).toEqual([
      ['new_case', 3],
      ['regressed', 1],
      ['usage_changed', 1],
    ]);
    expect(run.brief).toBe(2);
  });

  it("gives each suite its own totals at its end, which add up to the run's", () => {
    const { suites, run, report } = folded;
    expect(suites.map((s) => s.suite.suite)).toEqual(['refunds', 'direct']);
    const [refunds, direct] = suites.map((s) => s.totals);
    expect(refunds!.counts).toMatchObject({ cases: 5, regressed: 1, failed: 2, errored: 1, not_run: 1 });
    expect(direct!.counts).toMatchObject({ cases: 2, passed: 1, errored: 1 });
    expect(refunds!.counts.cases + direct!.counts.cases).toBe(run.counts.cases);
    expect(refunds!.time_ms + direct!.time_ms).toBe(run.time_ms);
    expect(refunds!.tokens.total + direct!.tokens.total).toBe(run.tokens.total);
    // Usage against the baseline, over the cases both answered: the suite's, summed.
    expect(run.compared).toEqual(report.suites[0]!.usage.compared);
    expect(direct!.compared).toBeNull();
  });

  it('publishes them read-only', () => {
    expect(Object.isFrozen(folded.run)).toBe(true);
    expect(Object.isFrozen(folded.run.tokens)).toBe(true);
    expect(() => {
      (folded.run.review as Record<string, number>).regressed = 9;
    }).toThrow(TypeError);
  });

  it('are made again the same from a report in memory', () => {
    const published = publishReport(folded.report);
    expect(published.totals).toEqual(folded.run);
    expect(published.suites.map((s) => s.totals)).toEqual(folded.suites.map((s) => s.totals));
    expect(published.cases.map((c) => [c.entry.id, c.review])).toEqual([...folded.reviews]);
  });
});

describe("the fold's reader of a stored report.json", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-totals-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('adds up, from the file, the totals the fold handed out live', async () => {
    let live: Totals | null = null;
    const reviews: [string, ReviewClass][] = [];
    const spy: Reporter = {
      onCase: ({ entry, review }) => {
        reviews.push([entry.id, review]);
      },
      onEnd: async (_head, totals) => {
        live = totals;
        return [];
      },
    };
    await foldSamples(samples(), {
      baselines: { refunds: baseline },
      unsent: { refunds: ['never'] },
      reporters: [jsonReporter(dir), spy],
    });
    const stored = await openPublished(dir);
    expect(() => stored.totals()).toThrow(/read the cases/);
    const read: [string, ReviewClass][] = [];
    for await (const c of stored.cases()) read.push([c.entry.id, c.review]);
    expect(read).toEqual(reviews);
    expect(stored.totals()).toEqual(live);
  });
});

describe('latency percentiles held as counts', () => {
  it('are the nearest-rank percentiles of every value, however many', async () => {
    // Whole milliseconds, many repeated: what a run's answered samples are.
    const latencies = Array.from({ length: 3_000 }, (_, i) => 20 + ((i * 7919) % 997));
    const report = await foldSamples(
      latencies.map((latency_ms, i) => sampleResult({ case: `c${i}`, latency_ms })),
    );
    const totals = publishReport(report).totals;
    expect(totals.latency_ms).toEqual({
      p50: nearestRank(latencies, 0.5),
      p95: nearestRank(latencies, 0.95),
      samples: 3_000,
    });
  });
});

describe('time to first token over the streamed samples', () => {
  it("is the nearest-rank percentiles of the streamed cases' samples, and null when none streamed", async () => {
    const firsts = [40, 90, 60, 300, 75];
    const stream = (first_token_ms: number) => ({
      first_token_ms,
      last_token_ms: first_token_ms + 100,
      chunks: 6,
      tokens_per_s: 50,
    });
    const report = await foldSamples([
      ...firsts.map((first, repeat) => sampleResult({ case: 'streamed', repeat, stream: stream(first) })),
      // A case not streamed adds nothing to it.
      sampleResult({ case: 'plain', latency_ms: 5_000 }),
    ]);
    expect(publishReport(report).totals.ttft_ms).toEqual({
      p50: nearestRank(firsts, 0.5),
      p95: nearestRank(firsts, 0.95),
      samples: 5,
    });
    const plain = await foldSamples([sampleResult({ case: 'plain' })]);
    expect(publishReport(plain).totals.ttft_ms).toBeNull();
  });
});

describe('the providers and models that served, most first', () => {
  it('orders ties by code unit, the same on every machine and locale (no ICU collation)', async () => {
    const served = ['anthropic', 'Azure', 'azure-eu', 'Azure_EU'];
    const report = await foldSamples(
      served.map((provider, i) =>
        sampleResult({ case: `c${i}`, provider } as Partial<SampleResult> & { case: string }),
      ),
    );
    // localeCompare put 'anthropic' before 'Azure' and '_' before '-': the order followed the collation.
    expect(publishReport(report).totals.providers.map((p) => p.name)).toEqual([
      'Azure',
      'Azure_EU',
      'anthropic',
      'azure-eu',
    ]);
  });
});
