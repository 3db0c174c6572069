import { answersCompared, diffCase, type DiffOptions, suiteDrift } from '../baseline/diff.js';
import { caseOf } from '../baseline/store.js';
import { mergeTolerance, overlayTolerance } from '../baseline/tolerance.js';
import { suiteUsageTotals } from '../baseline/usage-totals.js';
import type { PlanRecord } from '../journal/records.js';
import { ADAPTIVE_SAMPLING } from '../stats/adaptive.js';
import { DEFAULT_ALPHA } from '../stats/compare.js';
import type { Baseline, CaseEntry, CaseError, CaseStatus, SuiteReport, TokenTotals } from '../types.js';
import { recordedSuiteDrift } from '../record/baseline.js';
import { recordedCase, recordedStats, recordedSuite } from '../record/fold.js';
import { CaseFold, latencySketch, latencySummary } from './case-fold.js';
import { Tally } from './tally.js';
import { analyseLatency } from './latency-drift.js';
import { analysePassRates, baselineSamples, type CaseStats } from './pass-rates.js';

export interface SuiteFoldInput {
  plan: PlanRecord;
  /** The folded samples by case id (a case with none was not run). */
  folds: ReadonlyMap<string, CaseFold>;
  baseline: Baseline | null;
  /** Where the baseline lives (shown in reports), when there is one. */
  baselinePath: string | null;
  /** The whole plan ran to the end: a baseline case the plan lacks is missing. */
  complete: boolean;
  /** Why cases were not run (the run's stop), if it stopped. */
  stopError: CaseError | null;
  options: Pick<DiffOptions, 'candidate'> & { alpha?: number };
}

export interface FoldedSuite {
  suite: SuiteReport;
  /** In plan order. */
  cases: CaseEntry[];
}

const roundCost = (value: number): number => Math.round(value * 1e10) / 1e10;

/**
 * Turns one suite's folded samples into its report entries, each with the verdict a person
 * should read and its drift against the baseline, plus the suite-level findings. The
 * pass-rate tests are decided over the whole suite (stratified test, Holm-adjusted cases),
 * as are recorded fields' rates (tool use), which is why a suite is folded once all its cases are in. Pure.
 */
export function foldSuite(input: SuiteFoldInput): FoldedSuite {
  const { plan, baseline } = input;
  const empty = new CaseFold();
  const folded = plan.cases.map((c) => ({ plan: c, fold: input.folds.get(c.id) ?? empty }));
  const rates = analysePassRates(
    folded.map(({ plan: c, fold }) => ({
      case: c.id,
      samples: { pass: fold.passed, total: fold.sent },
      baseline: baselineSamples(caseOf(baseline, c.id) ?? undefined),
      adaptive: c.repeat === 'auto',
    })),
    input.options.alpha,
  );
  const statOf = new Map(rates.stats.map((s) => [s.case, s]));
  const candidate = input.options.candidate ?? false;
  const latency = analyseLatency(
    folded.map(({ plan: c, fold }) => ({
      case: c.id,
      current: fold.answeredLatencies,
      baseline: caseOf(baseline, c.id)?.latency_ms,
      tolerance: mergeTolerance(plan.drift, c.drift).latency,
    })),
    {
      alpha: input.options.alpha ?? DEFAULT_ALPHA,
      candidate,
      suite: mergeTolerance(plan.drift).latency,
    },
  );
  const cases = folded.map(({ plan: c, fold }) =>
    caseEntry(plan, c.id, c.messages, c.repeat, fold, statOf.get(c.id), input.stopError),
  );
  // Recorded fields whose drift is a test over many cases (tool-use rates) judge them together.
  const recorded = recordedSuiteDrift(
    cases.flatMap((entry) => {
      const base = caseOf(baseline, entry.case);
      return base && answersCompared(entry) ? [{ case: entry.case, current: entry, baseline: base }] : [];
    }),
    { alpha: input.options.alpha ?? DEFAULT_ALPHA },
  );
  folded.forEach(({ plan: c }, i) => {
    const entry = cases[i]!;
    const drift = diffCase(entry, caseOf(baseline, c.id) ?? undefined, {
      ...(candidate ? { candidate: true } : {}),
      tolerance: overlayTolerance(plan.drift, c.drift),
    });
    const dropped = rates.caseDrift.get(c.id);
    const latencyChange = latency.caseDrift.get(c.id);
    entry.drift = [
      ...(dropped ? [dropped] : []),
      ...drift,
      ...(recorded.caseDrift.get(c.id) ?? []),
      ...(latencyChange ? [latencyChange] : []),
    ];
  });
  const drift = suiteDrift({
    cases,
    baseline,
    seen: new Set(plan.cases.map((c) => c.id)),
    complete: input.complete,
    ...(input.options.candidate ? { options: { candidate: true } } : {}),
    ...(plan.drift ? { tolerance: plan.drift } : {}),
  });
  drift.push(...rates.suiteDrift, ...recorded.suiteDrift);
  if (latency.suiteDrift) drift.push(latency.suiteDrift);
  const models = new Tally<string>();
  for (const { fold } of folded) for (const [m] of fold.models.entries()) models.add(m);
  const suite: SuiteReport = {
    suite: plan.suite,
    file: plan.file,
    service: cases.find((c) => c.samples.sent > 0)?.service ?? plan.service,
    requested_model: cases[0]?.requested_model ?? plan.requested_model,
    models: models.byFrequency().sort(),
    ...recordedSuite(cases),
    baseline: baseline ? input.baselinePath : null,
    drift,
    cases: cases.length,
    usage: { run: suiteUsageTotals(cases), compared: comparedUsage(cases, baseline) },
    ...(plan.system === undefined ? {} : { system: plan.system }),
  };
  return { suite, cases };
}

/** The baseline's entry of a case (own keys only: a case id is user input). */
function caseEntry(
  plan: PlanRecord,
  id: string,
  messages: CaseEntry['messages'],
  repeat: number | 'auto',
  fold: CaseFold,
  stat: CaseStats | undefined,
  stopError: CaseError | null,
): CaseEntry {
  const first = fold.first;
  const sent = fold.sent;
  const planned = repeat === 'auto' ? Math.max(ADAPTIVE_SAMPLING.min, sent) : Math.max(repeat, sent);
  const entry: CaseEntry = {
    id: `${plan.suite}/${id}`,
    suite: plan.suite,
    case: id,
    service: first?.service ?? plan.service,
    requested_model: first?.requested_model ?? plan.requested_model,
    status: statusOf(fold, stat),
    samples: {
      planned,
      sent,
      passed: fold.passed,
      failed: fold.failed,
      errored: fold.errored,
      not_run: planned - sent,
    },
    pass_rate: stat
      ? {
          rate: stat.rate,
          low: stat.low,
          high: stat.high,
          baseline: stat.baseline,
          p: stat.p,
          verdict: stat.verdict,
          weak_baseline: stat.weak_baseline ?? false,
        }
      : null,
    model: first?.model ?? null,
    models: fold.models.byFrequency(),
    ...recordedCase(fold.recorded, first, fold.firstFailure),
    finish_reason: first?.finish_reason ?? null,
    usage: first?.usage ?? null,
    cache_status: first?.cache_status ?? null,
    response_id: first?.response_id ?? null,
    started_at: first?.started_at ?? null,
    error: sent === 0 ? stopError : (fold.firstFailure?.error ?? null),
    error_kinds: Object.fromEntries(fold.errorKinds.entries()),
    checks: first?.checks ?? [],
    check_passes: fold.checkPasses,
    content: first?.content ?? null,
    answers: fold.answers ? [...fold.answers.values()].sort((a, b) => b.count - a.count) : [],
    other_answers: fold.otherAnswers,
    // The first sample is shown whole already; a later failing one is kept beside it.
    first_failure: fold.firstFailure && fold.firstFailure !== first ? fold.firstFailure : null,
    stats: {
      prompt_tokens: fold.promptTokens,
      completion_tokens: fold.completionTokens,
      total_tokens: fold.totalTokens,
      ...recordedStats(fold.recorded),
      cost: fold.cost === null ? null : roundCost(fold.cost),
      with_usage: fold.withUsage,
      with_cost: fold.withCost,
      answered: {
        ...fold.answered,
        cost: fold.answered.cost === null ? null : roundCost(fold.answered.cost),
        latency_ms: latencySketch(fold.answeredLatencies),
      },
      latency_ms: latencySummary(fold.latencies),
      attempts: fold.attempts,
      wait_ms: fold.waitMs,
      judge_calls: fold.judgeCalls,
      judge_tokens: fold.judgeTokens,
      judge_cost: fold.judgeCost === null ? null : roundCost(fold.judgeCost),
    },
    drift: [],
    messages,
    redacted: fold.redacted,
    // Decided once the entry is final (RunFold, after the history's annotations): see caseDetail.
    detail: 'full',
  };
  if (repeat === 'auto' || fold.adaptive) entry.sampling = 'auto';
  return entry;
}

/**
 * The verdict of a case: a single sample's own status; for a repeated case its pass-rate
 * rule (a failing sample among passing ones is noise), except that any error shows.
 * `failing` is that rule's answer (`failsRun`: fewer than half the samples pass, or the
 * pass rate dropped against the baseline), null for a case sampled once. The fold and the
 * history's reader of driftcheck 0.1 reports both decide with it.
 */
export function caseVerdict(c: {
  sent: number;
  errored: number;
  single: CaseStatus | null;
  failing: boolean | null;
}): CaseStatus {
  if (c.sent === 0) return 'not_run';
  if (c.failing === null) return c.single!;
  if (c.errored > 0) return 'error';
  return c.failing ? 'fail' : 'pass';
}

function statusOf(fold: CaseFold, stat: CaseStats | undefined): CaseStatus {
  return caseVerdict({
    sent: fold.sent,
    errored: fold.errored,
    single: fold.first?.status ?? null,
    failing: stat ? stat.failing : null,
  });
}

/** This run's usage and the baseline's over the cases both answered, for "vs baseline" lines. */
function comparedUsage(
  cases: readonly CaseEntry[],
  baseline: Baseline | null,
): FoldedSuite['suite']['usage']['compared'] {
  if (!baseline) return null;
  const run = zero();
  const base = zero();
  let n = 0;
  for (const c of cases) {
    const then = Object.hasOwn(baseline.cases, c.case) ? baseline.cases[c.case]?.usage : null;
    if (!c.usage || !then) continue;
    n++;
    add(run, c.usage);
    add(base, then);
  }
  return n === 0 ? null : { cases: n, run, baseline: base };
}

function zero(): TokenTotals {
  return { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cost: null };
}

function add(t: TokenTotals, u: NonNullable<CaseEntry['usage']>): void {
  t.prompt_tokens += u.prompt_tokens ?? 0;
  t.completion_tokens += u.completion_tokens ?? 0;
  t.total_tokens += u.total_tokens ?? (u.prompt_tokens ?? 0) + (u.completion_tokens ?? 0);
  if (typeof u.cost === 'number') t.cost = roundCost((t.cost ?? 0) + u.cost);
}
