import { REPORT_SCHEMA_VERSION } from '../../src/stored/report/case-line.js';
import { countSuite, emptySummary, exitCodeFor } from '../../src/fold/summary.js';
import { caseDetail } from '../../src/stored/report/case-line.js';
import type { CaseEntry, Report, SuiteReport } from '../../src/stored/report/types.js';
import type { SampleResult } from '../../src/stored/journal/records.js';
import type { Drift } from '../../src/record/drift-kinds.js';
import { sampleResult } from './results.js';
import { addRecorded, recordedCase, recordedStats, startRecorded } from '../../src/fold/recorded.js';
import { conversationOf } from '../../src/fold/conversation.js';

/** A conversation's entry holds its transcript's fields (src/fold/conversation.ts); any other none. */
function conversationField(sample: SampleResult | null): Pick<CaseEntry, 'conversation'> {
  const conversation = conversationOf(sample);
  return conversation ? { conversation } : {};
}

/**
 * The report entry of a case sampled once, from its sample: for renderer tests that are about
 * one detail of one case (a whole run's entries come from foldSamples).
 */
export function entryOf(
  sample: SampleResult,
  drift: Drift[] = [],
  extra: Partial<CaseEntry> = {},
): CaseEntry {
  const sent = sample.status === 'not_run' ? 0 : 1;
  const usage = sample.usage;
  const known = (v: number | null | undefined) => (typeof v === 'number' ? v : 0);
  // The recorded fields (src/record/fields/) as the fold gives them for this one sample.
  const recorded = startRecorded();
  if (sent) addRecorded(recorded, sample);
  const failure = sample.status === 'fail' || sample.status === 'error' ? sample : null;
  const entry: Omit<CaseEntry, 'detail'> & { detail?: CaseEntry['detail'] } = {
    id: `${sample.suite}/${sample.case}`,
    suite: sample.suite,
    case: sample.case,
    service: sample.service,
    requested_model: sample.requested_model,
    status: sample.status,
    samples: {
      planned: 1,
      sent,
      passed: sample.status === 'pass' ? 1 : 0,
      failed: sample.status === 'fail' ? 1 : 0,
      errored: sample.status === 'error' ? 1 : 0,
      not_run: 1 - sent,
    },
    pass_rate: null,
    model: sample.model,
    models: sample.model ? [sample.model] : [],
    ...recordedCase(recorded, sent ? sample : null, failure),
    finish_reason: sample.finish_reason,
    usage,
    cache_status: sample.cache_status ?? null,
    response_id: sample.response_id,
    started_at: sample.started_at,
    error: sample.error,
    error_kinds: sample.error ? { [sample.error.kind]: 1 } : {},
    checks: sample.checks,
    check_passes: sample.checks.map((c) => (c.pass ? 1 : 0)),
    content: sample.content,
    ...conversationField(sent ? sample : null),
    answers: [],
    other_answers: 0,
    first_failure: null,
    stats: {
      prompt_tokens: known(usage?.prompt_tokens),
      completion_tokens: known(usage?.completion_tokens),
      total_tokens: known(usage?.total_tokens),
      ...recordedStats(recorded),
      cost: typeof usage?.cost === 'number' ? usage.cost : null,
      with_usage: usage ? 1 : 0,
      with_cost: typeof usage?.cost === 'number' ? 1 : 0,
      answered: {
        with_usage: usage && sample.status !== 'error' ? 1 : 0,
        completion_tokens: sample.status !== 'error' ? known(usage?.completion_tokens) : 0,
        total_tokens: sample.status !== 'error' ? known(usage?.total_tokens) : 0,
        cost: sample.status !== 'error' && typeof usage?.cost === 'number' ? usage.cost : null,
        with_cost: sample.status !== 'error' && typeof usage?.cost === 'number' ? 1 : 0,
      },
      latency_ms:
        sample.latency_ms === null
          ? null
          : { p50: sample.latency_ms, p95: sample.latency_ms, max: sample.latency_ms },
      attempts: sample.attempts,
      wait_ms: sample.wait_ms,
      judge_calls: 0,
      judge_tokens: 0,
      judge_cost: null,
    },
    drift,
    messages: [{ role: 'user', content: 'What is the refund window?' }],
    redacted: sample.redacted,
    ...extra,
  };
  // As the fold decides it once the entry is final, unless the test says otherwise.
  return { ...entry, detail: entry.detail ?? caseDetail(entry) };
}

/** A sample with defaults, as its entry: `makeEntry({ case: 'a', status: 'fail' }, drift)`. */
export function makeEntry(over: Partial<SampleResult> & { case: string }, drift: Drift[] = []): CaseEntry {
  return entryOf(sampleResult(over), drift);
}

/** A report around the given entries, counted the one way every reporter counts. */
export function reportOf(
  cases: CaseEntry[],
  extra: { suites?: SuiteReport[]; exit_code?: 0 | 1 | 3 } = {},
): Report {
  const names = [...new Set(cases.map((c) => c.suite))];
  const suites: SuiteReport[] =
    extra.suites ??
    names.map((suite) => {
      const own = cases.filter((c) => c.suite === suite);
      return {
        suite,
        file: `suites/${suite}.yaml`,
        service: own[0]!.service,
        requested_model: own[0]!.requested_model,
        models: [...new Set(own.flatMap((c) => c.models))],
        providers: [...new Set(own.flatMap((c) => c.providers))],
        baseline: `baselines/${suite}.json`,
        drift: [],
        cases: own.length,
        usage: {
          run: {
            samples: own.reduce((n, c) => n + c.samples.sent, 0),
            with_usage: own.reduce((n, c) => n + c.stats.with_usage, 0),
            prompt_tokens: own.reduce((n, c) => n + c.stats.prompt_tokens, 0),
            completion_tokens: own.reduce((n, c) => n + c.stats.completion_tokens, 0),
            total_tokens: own.reduce((n, c) => n + c.stats.total_tokens, 0),
            cost: own.some((c) => c.stats.cost !== null)
              ? own.reduce((n, c) => n + (c.stats.cost ?? 0), 0)
              : null,
            cost_samples: own.reduce((n, c) => n + c.stats.with_cost, 0),
            judge: { calls: 0, total_tokens: 0, cost: null },
          },
          compared: null,
        },
      };
    });
  const summary = emptySummary();
  for (const s of suites)
    countSuite(
      summary,
      s,
      cases.filter((c) => c.suite === s.suite),
    );
  return {
    schema_version: REPORT_SCHEMA_VERSION,
    run: {
      id: '20261122T050004Z-e9d8',
      status: 'completed',
      exit_code: extra.exit_code ?? exitCodeFor(summary, null),
      started_at: '2026-11-22T05:00:04.000Z',
      finished_at: '2026-11-22T05:00:09.500Z',
      command: ['driftcheck', 'run', '--sim', 'suites/demo'],
      driftcheck_version: '0.1.0',
      sim: true,
      candidate_model: null,
      shard: null,
      stop_reason: null,
      provenance: { kind: 'nightly', sim: true, shard: null, complete: true, rendered_by: 'run' },
    },
    summary,
    suites,
    cases,
  };
}
