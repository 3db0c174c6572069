import { answersCompared, diffCase, type DiffOptions, suiteDrift } from '../baseline/diff.js';
import { caseOf } from '../baseline/store.js';
import { mergeTolerance, overlayTolerance } from '../baseline/tolerance.js';
import { type AnsweredCase, addUsageTotals, emptyUsageTotals, roundCost } from '../baseline/usage-totals.js';
import type { PlanCase, PlanRecord } from '../journal/records.js';
import { DEFAULT_ALPHA } from '../stats/compare.js';
import { SuiteBaseline } from '../baseline/suite-baseline.js';
import type {
  Baseline,
  BaselineCase,
  CaseEntry,
  CaseError,
  CaseStatus,
  SuiteReport,
  TokenTotals,
} from '../types.js';
import { recordedSuiteDrift, suiteRuleOutputs } from '../record/baseline.js';
import { RecordedLists } from '../record/fold.js';
import { CaseFold } from './case-fold.js';
import { caseEntry, caseVerdict, passRateOf } from './case-entry.js';
import { Tally } from './tally.js';
import { analyseLatency } from './latency-drift.js';
import { analysePassRates, baselineSamples } from './pass-rates.js';

/**
 * What a suite's verdicts read of one complete case: counts and numbers, never its answer,
 * checks or messages (those wait in its entry, see SuiteCases).
 */
interface CaseNumbers {
  sent: number;
  passed: number;
  errored: number;
  /** The first sample's status: the verdict of a case sampled once. */
  single: CaseStatus;
  /**
   * Latencies of its answered samples, every one: the rank test compares them. A case
   * answered once keeps its one number, not a list (100,000 lists held for a large suite).
   */
  latencies: number | readonly number[];
  answered: AnsweredCase['stats']['answered'];
  /** Its first sample's usage: what "vs baseline" lines compare. */
  usage: CaseEntry['usage'];
  service: string;
  requested_model: string;
  /** Its entry's outputs of the recorded fields judged over the suite (tool use). */
  recorded: Readonly<Record<string, unknown>>;
}

/**
 * A suite's cases as they complete, in any order: what its suite-level tests read of each
 * (CaseNumbers) and its running totals. `close` returns the case's entry with its verdict
 * still open, for the caller to keep where it likes (held, or spilled to disk) until
 * `suiteVerdicts` finishes it. Pure.
 */
export class SuiteCases {
  private readonly numbers = new Map<string, CaseNumbers>();
  private readonly usage = emptyUsageTotals();
  private readonly models = new Tally<string>();
  private readonly lists = new RecordedLists();

  constructor(readonly plan: PlanRecord) {}

  has(id: string): boolean {
    return this.numbers.has(id);
  }

  get(id: string): CaseNumbers | undefined {
    return this.numbers.get(id);
  }

  /**
   * A complete case: keeps its numbers and adds it to the suite's totals; returns its entry
   * (null for a case with no sent sample: it is made again, as not run, when the suite is
   * finished).
   */
  close(c: PlanCase, fold: CaseFold): CaseEntry | null {
    if (fold.sent === 0) return null;
    // Without its messages: the plan holds them, and they go back in when the entry is
    // finished (a suite's system prompt in every case would fill the spill many times over).
    const entry = caseEntry(this.plan, c.id, [], c.repeat, fold, undefined, null);
    const a = entry.stats.answered;
    // A literal, not a rest copy: a rest copy is a dictionary-mode object, several times larger.
    const answered = {
      with_usage: a.with_usage,
      completion_tokens: a.completion_tokens,
      total_tokens: a.total_tokens,
      cost: a.cost,
      with_cost: a.with_cost,
    };
    this.numbers.set(c.id, {
      sent: fold.sent,
      passed: fold.passed,
      errored: fold.errored,
      single: entry.status,
      // A copy of its exact length: an array grown by push keeps room for 17 numbers.
      latencies:
        fold.answeredLatencies.length === 1 ? fold.answeredLatencies[0]! : fold.answeredLatencies.slice(),
      answered,
      usage: entry.usage,
      service: entry.service,
      requested_model: entry.requested_model,
      recorded: suiteRuleOutputs(entry),
    });
    addUsageTotals(this.usage, entry);
    for (const [m] of fold.models.entries()) this.models.add(m);
    this.lists.add(entry, c.ordinal);
    return entry;
  }

  /** The suite's totals once every case is closed. */
  totals() {
    return { usage: this.usage, models: this.models.byFrequency().sort(), lists: this.lists.result() };
  }
}

export interface SuiteVerdictInput {
  cases: SuiteCases;
  baseline: SuiteBaseline | null;
  /** Where the baseline lives (shown in reports), when there is one. */
  baselinePath: string | null;
  /** The whole plan ran to the end: a baseline case the plan lacks is missing. */
  complete: boolean;
  /** Why cases were not run (the run's stop), if it stopped. */
  stopError: CaseError | null;
  options: Pick<DiffOptions, 'candidate'> & { alpha?: number };
}

export interface SuiteVerdicts {
  suite: SuiteReport;
  /**
   * Finishes one planned case's entry: its verdict, pass rate and drift. `open` is what
   * SuiteCases.close returned for it (undefined or null: not run). Call in plan order.
   */
  entry(c: PlanCase, open: CaseEntry | null | undefined): CaseEntry;
  /** The baseline's entry of a case (parsed when asked), as `entry` compared it. */
  base(id: string): BaselineCase | undefined;
}

/**
 * A suite's verdicts once every case of it is closed: the pass-rate tests are decided over
 * the whole suite (stratified test, Holm-adjusted cases), as are latency changes and recorded
 * fields' rates (tool use), from the cases' numbers alone; then each entry is finished as it is handed over, so a suite's
 * entries never need to be in memory together. Pure.
 */
export function suiteVerdicts(input: SuiteVerdictInput): SuiteVerdicts {
  const baseline = input.baseline?.figures ?? null;
  const plan = input.cases.plan;
  const numbers = plan.cases.map((c) => ({ c, n: input.cases.get(c.id) }));
  const rates = analysePassRates(
    numbers.map(({ c, n }) => ({
      case: c.id,
      samples: { pass: n?.passed ?? 0, total: n?.sent ?? 0 },
      baseline: baselineSamples(caseOf(baseline, c.id) ?? undefined),
      adaptive: c.repeat === 'auto',
    })),
    input.options.alpha,
  );
  const statOf = new Map(rates.stats.map((s) => [s.case, s]));
  const candidate = input.options.candidate ?? false;
  const latency = analyseLatency(
    numbers.map(({ c, n }) => ({
      case: c.id,
      current: typeof n?.latencies === 'number' ? [n.latencies] : (n?.latencies ?? []),
      baseline: caseOf(baseline, c.id)?.latency_ms,
      tolerance: mergeTolerance(plan.drift, c.drift).latency,
    })),
    {
      alpha: input.options.alpha ?? DEFAULT_ALPHA,
      candidate,
      suite: mergeTolerance(plan.drift).latency,
    },
  );
  const answered = numbers.flatMap(({ c, n }) =>
    n ? [{ case: c.id, stats: { answered: n.answered } }] : [],
  );
  // Recorded fields whose drift is a test over many cases (tool-use rates) judge them
  // together, over the cases whose answers are compared with their baseline's.
  const recorded = recordedSuiteDrift(
    numbers.flatMap(({ c, n }) => {
      const base = caseOf(baseline, c.id);
      if (!n || !base) return [];
      const stat = statOf.get(c.id);
      const status = caseVerdict({
        sent: n.sent,
        errored: n.errored,
        single: n.single,
        failing: stat ? stat.failing : null,
      });
      return answersCompared({ status }) ? [{ case: c.id, current: n.recorded, baseline: base }] : [];
    }),
    { alpha: input.options.alpha ?? DEFAULT_ALPHA },
  );
  const drift = suiteDrift({
    cases: answered,
    baseline,
    seen: new Set(plan.cases.map((c) => c.id)),
    complete: input.complete,
    ...(input.options.candidate ? { options: { candidate: true } } : {}),
    ...(plan.drift ? { tolerance: plan.drift } : {}),
  });
  drift.push(...rates.suiteDrift, ...recorded.suiteDrift);
  if (latency.suiteDrift) drift.push(latency.suiteDrift);
  const totals = input.cases.totals();
  const first = numbers[0]?.n;
  const suite: SuiteReport = {
    suite: plan.suite,
    file: plan.file,
    service: numbers.find(({ n }) => n !== undefined)?.n?.service ?? plan.service,
    requested_model: first?.requested_model ?? plan.requested_model,
    models: totals.models,
    ...(totals.lists as Pick<SuiteReport, keyof typeof totals.lists>),
    baseline: input.baseline ? input.baselinePath : null,
    drift,
    cases: plan.cases.length,
    usage: { run: totals.usage, compared: comparedUsage(numbers, baseline) },
    ...(plan.system === undefined ? {} : { system: plan.system }),
  };
  // The case last asked for: `entry` and then the reporters read the same baseline case.
  let last: { id: string; base: BaselineCase | undefined } | null = null;
  const base = (id: string): BaselineCase | undefined => {
    if (last?.id !== id) last = { id, base: input.baseline?.case(id) ?? undefined };
    return last.base;
  };
  return {
    suite,
    base,
    entry(c, open) {
      const stat = statOf.get(c.id);
      const entry =
        open ?? caseEntry(plan, c.id, c.messages ?? [], c.repeat, new CaseFold(), stat, input.stopError);
      entry.messages = c.messages ?? [];
      const s = entry.samples;
      entry.status = caseVerdict({
        sent: s.sent,
        errored: s.errored,
        single: s.sent === 0 ? null : entry.status,
        failing: stat ? stat.failing : null,
      });
      entry.pass_rate = passRateOf(stat);
      const changes = diffCase(entry, base(c.id), {
        ...(candidate ? { candidate: true } : {}),
        tolerance: overlayTolerance(plan.drift, c.drift),
      });
      const dropped = rates.caseDrift.get(c.id);
      const latencyChange = latency.caseDrift.get(c.id);
      entry.drift = [
        ...(dropped ? [dropped] : []),
        ...changes,
        ...(recorded.caseDrift.get(c.id) ?? []),
        ...(latencyChange ? [latencyChange] : []),
      ];
      return entry;
    },
  };
}

interface SuiteFoldInput extends Omit<SuiteVerdictInput, 'cases' | 'baseline'> {
  plan: PlanRecord;
  baseline: Baseline | null;
  /** The folded samples by case id (a case with none was not run). */
  folds: ReadonlyMap<string, CaseFold>;
}

interface FoldedSuite {
  suite: SuiteReport;
  /** In plan order. */
  cases: CaseEntry[];
}

/**
 * Turns one suite's folded samples into its report entries, all at once (SuiteCases and
 * suiteVerdicts do the same a case at a time, for suites too large to hold). Pure.
 */
export function foldSuite(input: SuiteFoldInput): FoldedSuite {
  const cases = new SuiteCases(input.plan);
  const open = input.plan.cases.map((c) => {
    const fold = input.folds.get(c.id);
    return fold ? cases.close(c, fold) : null;
  });
  const verdicts = suiteVerdicts({
    ...input,
    cases,
    baseline: input.baseline ? SuiteBaseline.of(input.baseline) : null,
  });
  return { suite: verdicts.suite, cases: input.plan.cases.map((c, i) => verdicts.entry(c, open[i])) };
}

/** This run's usage and the baseline's over the cases both answered, for "vs baseline" lines. */
function comparedUsage(
  cases: readonly { c: PlanCase; n: CaseNumbers | undefined }[],
  baseline: { cases: Record<string, Pick<BaselineCase, 'usage'>> } | null,
): SuiteReport['usage']['compared'] {
  if (!baseline) return null;
  const run = zero();
  const base = zero();
  let n = 0;
  for (const { c, n: numbers } of cases) {
    const then = Object.hasOwn(baseline.cases, c.id) ? baseline.cases[c.id]?.usage : null;
    if (!numbers?.usage || !then) continue;
    n++;
    add(run, numbers.usage);
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
