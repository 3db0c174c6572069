import { answersCompared, diffCase, type DiffOptions, suiteDrift } from './drift/diff.js';
import { mergeTolerance, overlayTolerance } from './drift/tolerance.js';
import { type AnsweredCase, addUsageTotals, emptyUsageTotals } from './drift/usage-totals.js';
import { roundCost } from '../core/cost.js';
import type { PlanCase, PlanRecord } from '../stored/journal/records.js';
import { DEFAULT_ALPHA } from '../stats/compare.js';
import { SuiteBaseline } from '../stored/baseline/suite-baseline.js';
import type { Baseline, BaselineCase } from '../stored/baseline/types.js';
import type { CaseEntry, SuiteReport, TokenTotals } from '../stored/report/types.js';
import type { CaseStatus } from '../core/words.js';
import type { CaseError } from '../core/answer.js';
import { NONE_RECORDED, recordedSuiteDrift, suiteRuleOutputs } from '../stored/baseline/recorded.js';
import { RecordedLists } from './recorded.js';
import { CaseFold } from './case-fold.js';
import { caseEntry, caseVerdict, errorsShown, passRateOf, withinOf } from './case-entry.js';
import { Tally } from '../util/tally.js';
import { columns, orNaN, orNull, range, widenColumns } from '../util/columns.js';
import { IdTable } from '../util/id-table.js';
import { LatencyTally } from './latency-drift.js';
import {
  analysePassRates,
  analyseRate,
  baselineSamples,
  type CaseSamples,
  entersPassRateTest,
  WITHIN_MAX_STEPS,
} from './pass-rates.js';
import { baselineWithin } from '../stored/baseline/within-max-steps.js';
import type { Samples } from '../stats/samples.js';
import { MAX_MESSAGE_CHARS, shorten } from '../util/shorten.js';

/**
 * What a suite's verdicts read of one complete case: counts and numbers, never its answer,
 * checks or messages (those wait in its entry, see SuiteCases). Made when asked for, from
 * the suite's columns.
 */
interface CaseNumbers {
  sent: number;
  passed: number;
  /** Its errored samples whose error shows in a repeated case's verdict (errorsShown). */
  errorsShown: number;
  /** A tool loop's samples (`total`) and those that finished within max_steps (`pass`); null for another case. */
  within: Samples | null;
  /** The first sample's status: the verdict of a case sampled once. */
  single: CaseStatus;
  /** Latencies of its answered samples, every one: the rank test compares them. */
  latencies: readonly number[];
  answered: AnsweredCase['stats']['answered'];
  /** Its first sample's usage: what "vs baseline" lines compare. */
  usage: TokenUsage | null;
  service: string;
  requested_model: string;
  /** Its entry's outputs of the recorded fields judged over the suite (tool use). */
  recorded: Readonly<Record<string, unknown>>;
}

type TokenUsage = Pick<
  NonNullable<CaseEntry['usage']>,
  'prompt_tokens' | 'completion_tokens' | 'total_tokens'
> & {
  cost: number | null;
};

/** What few plan entries carry beyond id, ordinal and repeat. */
type PlanExtras = Pick<PlanCase, 'messages' | 'drift' | 'judges' | 'judge_baseline'>;

const STATUSES: readonly CaseStatus[] = ['pass', 'fail', 'error', 'not_run'];
/** errored: the errored samples whose error shows (errorsShown); repeat: a fixed repeat, or AUTO. */
const INTS = ['due', 'sent', 'passed', 'errored', 'withUsage', 'withCost', 'repeat'] as const;
const AUTO = -1;
const FLOATS = [
  'ordinal',
  'latency',
  'completion',
  'total',
  'cost',
  'prompt1',
  'completion1',
  'total1',
  'cost1',
] as const;
/** closed: 1 once complete; single: its STATUSES index; usage: 1 when its first sample had usage. */
const BYTES = ['closed', 'single', 'usage'] as const;
/** Indexes into the suite's few distinct strings (services, requested models). */
const SHORTS = ['service', 'requested'] as const;

/**
 * A suite's cases, each in a slot (in the order they join: its plan's, a shard's, one met
 * only in the samples): its plan entry, the samples it still awaits and, once complete, the
 * numbers its suite's tests read (CaseNumbers) and its running totals — held as columns of
 * numbers, one per field: a case costs about 140 bytes outside the heap, its id among them, not
 * five objects and two map entries (about 380 bytes; a 100,000-row table's suite held
 * 38 MB of them). A case's plan entry is made when asked for (`inOrder`). `close` returns
 * the case's entry with its verdict still open, for the caller to keep where it likes
 * (held, or spilled to disk) until `suiteVerdicts` finishes it. Pure.
 */
export class SuiteCases {
  /** Case ids by slot, and the slot of an id (outside the heap: IdTable). */
  private readonly ids = new IdTable();
  /** What few plan entries carry beyond id, ordinal and repeat (messages, drift, judges), by slot. */
  private readonly more = new Map<number, PlanExtras>();
  /** Slots in plan (ordinal) order, once cases joined out of it (a shard's); null: the slots' own order. */
  private sorted: Int32Array | null = null;
  private ordered = true;
  /** Kept as cases join: suites are sorted by it, and a scan per comparison read every case. */
  private lowestOrdinal = Infinity;
  /** Slots of cases the plan does not hold (met only in the samples), in the order they came: after the plan's. */
  private readonly unplanned: number[] = [];
  private readonly int = columns(INTS, (n) => new Int32Array(n));
  private readonly float = columns(FLOATS, (n) => new Float64Array(n));
  private readonly byte = columns(BYTES, (n) => new Uint8Array(n));
  private readonly short = columns(SHORTS, (n) => new Uint16Array(n));
  /** Answered latencies of the cases answered more than once (the column holds a single one). */
  private readonly latencies = new Map<number, readonly number[]>();
  /** Recorded fields' outputs, for the few cases that have any. */
  private readonly recorded = new Map<number, Readonly<Record<string, unknown>>>();
  /** The tool loops' samples of finishing within max_steps, for the few cases that ran as conversations. */
  private readonly within = new Map<number, Samples>();
  private readonly strings: string[] = [];
  private readonly stringIndex = new Map<string, number>();
  private capacity = 0;
  private dueCases = 0;
  private readonly usage = emptyUsageTotals();
  private readonly models = new Tally<string>();
  private readonly lists = new RecordedLists();

  /** The suite's plan record; its cases are held here, and read with `inOrder`. */
  readonly plan: PlanRecord;

  /** `planned`: how many cases its plan holds (when its record comes in parts: all of them). */
  constructor(plan: PlanRecord, planned = plan.cases.length) {
    this.plan = { ...plan, cases: [] };
    this.grow(Math.max(planned, plan.cases.length));
    for (const c of plan.cases) this.add(c);
  }

  /**
   * Adds a case (a known id keeps its slot); returns its slot. A case the plan does not hold
   * (`planned` false: met only in the samples) comes after the plan's cases, in the order
   * such cases came.
   */
  add(c: PlanCase, planned = true): number {
    const known = this.ids.size;
    const slot = this.ids.add(c.id);
    if (slot < known) return slot;
    if (slot >= this.capacity) this.grow(Math.max(16, this.capacity * 2));
    this.int.repeat[slot] = c.repeat === 'auto' ? AUTO : c.repeat;
    this.float.ordinal[slot] = c.ordinal;
    this.lowestOrdinal = Math.min(this.lowestOrdinal, c.ordinal);
    if (!planned) this.unplanned.push(slot);
    else if (slot > 0 && c.ordinal < this.float.ordinal[slot - 1]!) this.ordered = false;
    this.sorted = null;
    // A table row's place is the journal's: the fold finds its messages by id. A literal,
    // not a rest copy: a rest copy is a dictionary-mode object, several times larger.
    if (c.messages || c.drift || c.judges || c.judge_baseline !== undefined) {
      const more: PlanExtras = {};
      if (c.messages) more.messages = c.messages;
      if (c.drift) more.drift = c.drift;
      if (c.judges) more.judges = c.judges;
      if (c.judge_baseline !== undefined) more.judge_baseline = c.judge_baseline;
      this.more.set(slot, more);
    }
    return slot;
  }

  /** How many cases. */
  get size(): number {
    return this.ids.size;
  }

  /** The lowest ordinal of its cases (Infinity: none). */
  firstOrdinal(): number {
    return this.lowestOrdinal;
  }

  /** A case's plan entry, made from the columns. */
  private caseAt(slot: number): PlanCase {
    const c: PlanCase = {
      id: this.ids.at(slot),
      ordinal: this.float.ordinal[slot]!,
      repeat: this.repeatOf(slot),
    };
    const more = this.more.get(slot);
    return more ? Object.assign(c, more) : c;
  }

  private repeatOf(slot: number): PlanCase['repeat'] {
    const repeat = this.int.repeat[slot]!;
    return repeat === AUTO ? 'auto' : repeat;
  }

  /** The slots in plan order. */
  slotsInOrder(): Iterable<number> {
    if (this.ordered && this.unplanned.length === 0) return range(this.ids.size);
    if (!this.sorted) {
      const ordinal = this.float.ordinal;
      const unplanned = new Set(this.unplanned);
      const planned = Int32Array.from(range(this.ids.size)).filter((slot) => !unplanned.has(slot));
      if (!this.ordered) planned.sort((a, b) => ordinal[a]! - ordinal[b]!);
      this.sorted = new Int32Array(this.ids.size);
      this.sorted.set(planned);
      this.sorted.set(this.unplanned, planned.length);
    }
    return this.sorted;
  }

  /** Each case's plan entry and slot, in plan order (entries made one at a time). */
  *inOrder(): Generator<{ c: PlanCase; slot: number }> {
    for (const slot of this.slotsInOrder()) yield { c: this.caseAt(slot), slot };
  }

  slotOf(id: string): number | undefined {
    const slot = this.ids.slotOf(id);
    return slot === -1 ? undefined : slot;
  }

  /** Samples a fixed-repeat case still awaits (0: none, or it is not awaited). */
  due(slot: number): number {
    return this.int.due[slot]!;
  }

  setDue(slot: number, samples: number): void {
    const was = this.int.due[slot]!;
    this.int.due[slot] = samples;
    this.dueCases += (samples > 0 ? 1 : 0) - (was > 0 ? 1 : 0);
  }

  /** Whether any case still awaits a sample. */
  get awaiting(): boolean {
    return this.dueCases > 0;
  }

  closed(slot: number): boolean {
    return this.byte.closed[slot] === 1;
  }

  /** Its numbers, made from the columns; undefined before it is complete. */
  numbers(slot: number | undefined): CaseNumbers | undefined {
    if (slot === undefined || !this.closed(slot)) return undefined;
    const { int, float, byte, short } = this;
    const cost = orNull(float.cost[slot]!);
    return {
      sent: int.sent[slot]!,
      passed: int.passed[slot]!,
      errorsShown: int.errored[slot]!,
      within: this.within.get(slot) ?? null,
      single: STATUSES[byte.single[slot]!]!,
      latencies:
        this.latencies.get(slot) ?? (Number.isNaN(float.latency[slot]) ? [] : [float.latency[slot]!]),
      answered: {
        with_usage: int.withUsage[slot]!,
        completion_tokens: float.completion[slot]!,
        total_tokens: float.total[slot]!,
        cost,
        with_cost: int.withCost[slot]!,
      },
      usage:
        byte.usage[slot] === 1
          ? {
              prompt_tokens: orNull(float.prompt1[slot]!),
              completion_tokens: orNull(float.completion1[slot]!),
              total_tokens: orNull(float.total1[slot]!),
              cost: orNull(float.cost1[slot]!),
            }
          : null,
      service: this.strings[short.service[slot]!]!,
      requested_model: this.strings[short.requested[slot]!]!,
      recorded: this.recorded.get(slot) ?? NONE_RECORDED,
    };
  }

  /**
   * A complete case: keeps its numbers and adds it to the suite's totals; returns its entry
   * (null for a case with no sent sample: it is made again, as not run, when the suite is
   * finished).
   */
  close(slot: number, fold: CaseFold): CaseEntry | null {
    if (fold.sent === 0) return null;
    // Without its messages: the plan holds them, and they go back in when the entry is
    // finished (a suite's system prompt in every case would fill the spill many times over).
    const entry = caseEntry(this.plan, this.ids.at(slot), [], this.repeatOf(slot), fold, undefined, null);
    const { int, float, byte, short } = this;
    const a = entry.stats.answered;
    byte.closed[slot] = 1;
    int.sent[slot] = fold.sent;
    int.passed[slot] = fold.passed;
    int.errored[slot] = errorsShown(fold.errored, entry.error_kinds);
    if (fold.conversations > 0) this.within.set(slot, { pass: fold.finished, total: fold.conversations });
    byte.single[slot] = STATUSES.indexOf(entry.status);
    const answeredLatencies = fold.answeredLatencies;
    float.latency[slot] = orNaN(answeredLatencies[0]);
    if (answeredLatencies.length > 1) this.latencies.set(slot, answeredLatencies.slice());
    int.withUsage[slot] = a.with_usage;
    float.completion[slot] = a.completion_tokens;
    float.total[slot] = a.total_tokens;
    float.cost[slot] = orNaN(a.cost);
    int.withCost[slot] = a.with_cost;
    const u = entry.usage;
    byte.usage[slot] = u ? 1 : 0;
    float.prompt1[slot] = orNaN(u?.prompt_tokens);
    float.completion1[slot] = orNaN(u?.completion_tokens);
    float.total1[slot] = orNaN(u?.total_tokens);
    float.cost1[slot] = orNaN(u?.cost);
    short.service[slot] = this.stringOf(entry.service);
    short.requested[slot] = this.stringOf(entry.requested_model);
    const recorded = suiteRuleOutputs(entry);
    if (recorded !== NONE_RECORDED) this.recorded.set(slot, recorded);
    addUsageTotals(this.usage, entry);
    for (const [m] of fold.models.entries()) this.models.add(m);
    this.lists.add(entry, this.float.ordinal[slot]!);
    return entry;
  }

  /** The suite's totals once every case is closed. */
  totals() {
    return { usage: this.usage, models: this.models.byFrequency().sort(), lists: this.lists.result() };
  }

  private stringOf(text: string): number {
    let i = this.stringIndex.get(text);
    if (i === undefined) {
      i = this.strings.push(text) - 1;
      this.stringIndex.set(text, i);
    }
    return i;
  }

  private grow(capacity: number): void {
    widenColumns(this.int, capacity);
    widenColumns(this.float, capacity);
    widenColumns(this.byte, capacity);
    widenColumns(this.short, capacity);
    this.ids.reserve(capacity);
    this.capacity = capacity;
  }
}

export interface SuiteVerdictInput {
  cases: SuiteCases;
  baseline: SuiteBaseline | null;
  /** Where the baseline lives (shown in reports), when there is one. */
  baselinePath: string | null;
  /** The whole plan ran to the end: a baseline case the plan lacks is missing. */
  complete: boolean;
  /** Why a case was not run: its model's stop (run/model-stops.ts), else the run's stop; null when it did not stop. */
  notRunError: (c: PlanCase) => CaseError | null;
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
  // Each pass over the suite's cases makes their numbers from the columns one at a time,
  // and keeps only the cases its test takes: a suite of 100,000 cases sampled once, with no
  // baseline, builds no list of them.
  const numbers = function* () {
    for (const { c, slot } of input.cases.inOrder()) yield { c, n: input.cases.numbers(slot) };
  };
  // One pass for the pass-rate and latency tests and the usage both sides have: each case's
  // baseline figures read once for all three.
  // Each case's resolved `drift:` tolerance: the suite's, merged once, unless the case sets its own.
  const suiteTolerance = mergeTolerance(plan.drift);
  const toleranceOf = (c: PlanCase) => (c.drift ? mergeTolerance(plan.drift, c.drift) : suiteTolerance);
  const tested: CaseSamples[] = [];
  const loops: CaseSamples[] = [];
  const timed = new LatencyTally();
  const compared = baseline ? new ComparedUsage() : null;
  for (const { c, n } of numbers()) {
    const base = baseline?.get(c.id);
    compared?.add(n?.usage, base?.usage);
    const samples = {
      case: c.id,
      samples: { pass: n?.passed ?? 0, total: n?.sent ?? 0 },
      baseline: baselineSamples(base),
      adaptive: c.repeat === 'auto',
    };
    if (entersPassRateTest(samples)) tested.push(samples);
    // A tool loop's rate of finishing within max_steps, tested as its pass rate is.
    if (n?.within) {
      const within = { ...samples, samples: n.within, baseline: base ? baselineWithin(base) : null };
      if (entersPassRateTest(within)) loops.push(within);
    }
    if (!base?.latency_ms) continue;
    timed.add({
      case: c.id,
      current: n?.latencies ?? [],
      baseline: base.latency_ms,
      tolerance: toleranceOf(c).latency,
    });
  }
  const rates = analysePassRates(tested, input.options.alpha);
  const statOf = new Map(rates.stats.map((s) => [s.case, s]));
  const finished = analyseRate(WITHIN_MAX_STEPS, loops, input.options.alpha);
  const withinStatOf = new Map(finished.stats.map((s) => [s.case, s]));
  const candidate = input.options.candidate ?? false;
  const latency = timed.analyse({
    alpha: input.options.alpha ?? DEFAULT_ALPHA,
    candidate,
    suite: suiteTolerance.latency,
  });
  // Recorded fields whose drift is a test over many cases (tool-use rates) judge them
  // together, over the cases whose answers are compared with their baseline's.
  const judged: Parameters<typeof recordedSuiteDrift>[0][number][] = [];
  for (const { c, n } of numbers()) {
    if (!n || !baseline?.has(c.id)) continue;
    const stat = statOf.get(c.id);
    const status = caseVerdict({
      sent: n.sent,
      errored: n.errorsShown,
      single: n.single,
      failing: stat ? stat.failing : null,
    });
    if (!answersCompared({ status })) continue;
    // The rules judge the cases that hold a value on either side (RecordedField.drift.suite).
    const stored = input.baseline!.recorded(c.id);
    if (n.recorded !== NONE_RECORDED || stored !== NONE_RECORDED)
      judged.push({
        case: c.id,
        current: n.recorded,
        baseline: stored,
        tolerance: toleranceOf(c),
      });
  }
  const recorded = recordedSuiteDrift(judged, {
    alpha: input.options.alpha ?? DEFAULT_ALPHA,
    candidate,
    tolerance: suiteTolerance,
  });
  const answered = function* () {
    for (const { c, n } of numbers()) if (n) yield { case: c.id, stats: { answered: n.answered } };
  };
  const drift = suiteDrift({
    cases: answered(),
    baseline,
    seen: { has: (id) => input.cases.slotOf(id) !== undefined },
    complete: input.complete,
    ...(input.options.candidate ? { options: { candidate: true } } : {}),
    ...(plan.drift ? { tolerance: plan.drift } : {}),
  });
  drift.push(...rates.suiteDrift, ...finished.suiteDrift, ...recorded.suiteDrift);
  if (latency.suiteDrift) drift.push(latency.suiteDrift);
  const totals = input.cases.totals();
  const [firstSlot] = input.cases.slotsInOrder();
  const first = input.cases.numbers(firstSlot);
  let answeredFirst: CaseNumbers | undefined;
  for (const { n } of numbers()) if ((answeredFirst = n)) break;
  const suite: SuiteReport = {
    suite: plan.suite,
    file: plan.file,
    service: answeredFirst?.service ?? plan.service,
    requested_model: first?.requested_model ?? plan.requested_model,
    models: totals.models,
    ...(totals.lists as Pick<SuiteReport, keyof typeof totals.lists>),
    baseline: input.baseline ? input.baselinePath : null,
    drift,
    cases: input.cases.size,
    usage: { run: totals.usage, compared: compared?.result() ?? null },
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
        open ?? caseEntry(plan, c.id, c.messages ?? [], c.repeat, new CaseFold(), stat, input.notRunError(c));
      entry.messages = c.messages ?? [];
      const s = entry.samples;
      entry.status = caseVerdict({
        sent: s.sent,
        errored: errorsShown(s.errored, entry.error_kinds),
        single: s.sent === 0 ? null : entry.status,
        failing: stat ? stat.failing : null,
      });
      entry.pass_rate = passRateOf(stat);
      const within = withinStatOf.get(c.id);
      if (within) entry.within_max_steps = withinOf(within);
      const changes = diffCase(entry, base(c.id), {
        ...(candidate ? { candidate: true } : {}),
        tolerance: overlayTolerance(plan.drift, c.drift),
      });
      const dropped = rates.caseDrift.get(c.id);
      const unfinished = finished.caseDrift.get(c.id);
      const latencyChange = latency.caseDrift.get(c.id);
      entry.drift = [
        ...(dropped ? [dropped] : []),
        ...(unfinished ? [unfinished] : []),
        ...changes,
        ...(recorded.caseDrift.get(c.id) ?? []),
        ...(latencyChange ? [latencyChange] : []),
        // Every drift's message is bounded here, once, as every check's is where it runs.
      ].map((d) =>
        d.message.length > MAX_MESSAGE_CHARS ? { ...d, message: shorten(d.message, MAX_MESSAGE_CHARS) } : d,
      );
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
    return fold ? cases.close(cases.slotOf(c.id)!, fold) : null;
  });
  const verdicts = suiteVerdicts({
    ...input,
    cases,
    baseline: input.baseline ? SuiteBaseline.of(input.baseline) : null,
  });
  return { suite: verdicts.suite, cases: input.plan.cases.map((c, i) => verdicts.entry(c, open[i])) };
}

/** This run's usage and the baseline's over the cases both answered, for "vs baseline" lines. */
class ComparedUsage {
  private readonly run = zero();
  private readonly base = zero();
  private cases = 0;

  add(run: CaseNumbers['usage'] | undefined, base: BaselineCase['usage'] | undefined): void {
    if (!run || !base) return;
    this.cases++;
    add(this.run, run);
    add(this.base, base);
  }

  result(): SuiteReport['usage']['compared'] {
    return this.cases === 0 ? null : { cases: this.cases, run: this.run, baseline: this.base };
  }
}

function zero(): TokenTotals {
  return { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cost: null };
}

function add(
  t: TokenTotals,
  u: Pick<TokenUsage, 'prompt_tokens' | 'completion_tokens' | 'total_tokens'> & { cost?: number | null },
): void {
  t.prompt_tokens += u.prompt_tokens ?? 0;
  t.completion_tokens += u.completion_tokens ?? 0;
  t.total_tokens += u.total_tokens ?? (u.prompt_tokens ?? 0) + (u.completion_tokens ?? 0);
  if (typeof u.cost === 'number') t.cost = roundCost((t.cost ?? 0) + u.cost);
}
