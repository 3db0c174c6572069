import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fromReportV1, type ReportV1Like } from '../../src/history/from-report.js';
import { historyCase, type ReportV2Like } from '../../src/history/from-report-v2.js';
import { nearestRank } from '../../src/stats/nearest-rank.js';
import type { SampleResult } from '../../src/stored/journal/records.js';
import type { Drift } from '../../src/record/drift-kinds.js';
import { sampleResult } from '../helpers/results.js';
import { regressedDrift } from '../report/fixture.js';

/** A sample as a schema-1 report listed it: suite `support`, with its drift. */
function makeCase(
  over: Partial<SampleResult> & { case: string; drift?: Drift[] },
): ReportV1Like['cases'][number] {
  const { drift, ...sample } = over;
  return { ...sampleResult({ suite: 'support', ...sample }), drift: drift ?? [] };
}

/** A schema-1 report.json (driftcheck 0.1) around these samples. */
function makeReport(cases: ReportV1Like['cases']): ReportV1Like {
  return {
    schema_version: 1,
    run: {
      id: '20261122T050004Z-e9d8',
      started_at: '2026-11-22T05:00:04.000Z',
      finished_at: '2026-11-22T05:00:09.500Z',
      exit_code: cases.some((c) => c.status === 'fail' || c.status === 'error') ? 1 : 0,
      status: 'completed',
    },
    suites: [...new Set(cases.map((c) => c.suite))].map((suite) => ({
      suite,
      models: [...new Set(cases.filter((c) => c.suite === suite && c.model).map((c) => c.model!))],
      pass_rates: [],
    })),
    cases,
  };
}

describe('fromReportV1', () => {
  it('aggregates samples into one history entry per case', () => {
    const samples = [1, 2, 3, 4].map((repeat) =>
      makeCase({
        case: 'refund-window',
        key: `support/refund-window#${repeat}`,
        repeat,
        model: 'acme/chat-1',
        status: repeat === 4 ? 'error' : 'pass',
        error:
          repeat === 4
            ? { kind: 'timeout', http_status: null, type: null, code: null, message: 't', model: null }
            : null,
        usage: repeat === 4 ? null : { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, cost: 0.5 },
        latency_ms: repeat * 100,
        drift: repeat === 4 ? [regressedDrift()] : [],
      }),
    );
    const notRun = makeCase({
      case: 'paused',
      status: 'not_run',
      model: null,
      latency_ms: null,
      usage: null,
    });
    const { run, cases } = fromReportV1(makeReport([...samples, notRun]));
    expect(run).toMatchObject({ run_id: '20261122T050004Z-e9d8', exit_code: 1, status: 'completed' });
    expect(run.suites).toEqual([
      { suite: 'support', models: ['acme/chat-1'], providers: [], baseline_source_run: null },
    ]);
    expect(cases).toEqual([
      {
        suite: 'support',
        case: 'refund-window',
        // The fold's verdict, as `driftcheck report` of the same folder gives it: an error shows.
        status: 'error',
        samples: 4,
        passes: 3,
        error_kinds: ['timeout'],
        drift_kinds: ['regressed'],
        model: 'acme/chat-1',
        provider: null,
        tokens: { prompt: 30, completion: 15, total: 45 },
        cost: 1.5,
        latency_p50_ms: 200,
        latency_p95_ms: 400,
        tools: null,
      },
      expect.objectContaining({
        case: 'paused',
        status: 'not_run',
        samples: 0,
        passes: 0,
        tokens: null,
        cost: null,
      }),
    ]);
  });

  it('calls a case error only when nothing passed and errors dominate', () => {
    const err = {
      kind: 'timeout' as const,
      http_status: null,
      type: null,
      code: null,
      message: 't',
      model: null,
    };
    const { cases } = fromReportV1(makeReport([makeCase({ case: 'x', status: 'error', error: err })]));
    expect(cases[0]!.status).toBe('error');
  });

  it.each([
    [[], 0.5, null],
    [[7], 0.95, 7],
    [[5, 1, 3, 2, 4], 0.5, 3],
    [[5, 1, 3, 2, 4], 0.95, 5],
  ])('nearestRank(%o, %f) = %o', (xs, q, want) => {
    expect(nearestRank(xs, q)).toBe(want);
  });
});

describe('historyCase (schema 2 and later)', () => {
  const report = JSON.parse(
    readFileSync(new URL('../fixtures/history/report-v2.json', import.meta.url), 'utf8'),
  ) as ReportV2Like;
  const entry = report.cases[0]!;

  it("keeps a tool case's answered, triggered and valid counts, not the calls", () => {
    const toolUse = {
      answered: 10,
      triggered: 9,
      valid: 7,
      trigger_rate: 0.9,
      valid_rate: 0.7778,
      first: [],
      distinct: [{ name: 'create_refund', arguments: { order_id: 'A-1' }, count: 9, valid: true }],
      other_calls: 0,
    };
    expect(historyCase({ ...entry, tool_use: toolUse }).tools).toEqual({
      answered: 10,
      triggered: 9,
      valid: 7,
    });
  });

  it('has no tool counts for a case without tools, nor for a report written before tool calls were recorded', () => {
    expect(historyCase({ ...entry, tool_use: null }).tools).toBeNull();
    expect(entry).not.toHaveProperty('tool_use');
    expect(historyCase(entry).tools).toBeNull();
  });
});
