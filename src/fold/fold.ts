import type { CaseMessages } from '../run/plan-messages.js';
import { isRunStop } from '../core/error-kinds.js';
import {
  type EndRecord,
  type JournalRecord,
  modelStopOf,
  type PlanCase,
  type PlanRecord,
  type RunRecord,
  type SampleRecord,
} from '../stored/journal/records.js';
import { addUpSteps, ConversationSteps } from '../stored/journal/unjudged.js';
import { REPORT_SCHEMA_VERSION } from '../stored/report/case-line.js';
import type { Reporter, SuiteEndEvent, SuiteEvent } from './reporter.js';
import type { Baseline } from '../stored/baseline/types.js';
import type {
  CaseEntry,
  Provenance,
  RecheckInfo,
  ReportHead,
  RunInfo,
  SuiteReport,
} from '../stored/report/types.js';
import type { SampleResult } from '../stored/journal/records.js';
import type { StopReason } from '../core/stops.js';
import { CaseFold } from './case-fold.js';
import { ModelStops } from '../run/model-stops.js';
import { type BaselineHead, SuiteBaseline } from '../stored/baseline/suite-baseline.js';
import { SuiteCases, suiteVerdicts } from './suite.js';
import { isCandidateRun, provenanceFrom } from './provenance.js';
import { Spill } from './spill.js';
import { exitCodeFor, KILLED, runStatusFor } from './summary.js';
import { caseDetail } from '../stored/report/case-line.js';
import { reviewCase } from './review.js';
import { type Totals, TotalsTally } from './totals.js';

export interface FoldOptions {
  /** Reads one suite's baseline, when that suite is folded (one at a time, never all at once). */
  baseline: (suite: string) => Promise<{ baseline: Baseline | SuiteBaseline | null; path: string | null }>;
  /**
   * Who the folded suites are handed to. A run passes them still loading: their modules load
   * while its first requests are in flight, and the fold waits for them only when it first
   * hands something over.
   */
  reporters: readonly Reporter[] | Promise<readonly Reporter[]>;
  /** Significance level of the pass-rate tests (default 0.05). */
  alpha?: number;
  /**
   * Fold each suite as soon as every case of it is in (a run in progress, whose journal
   * comes in plan order). Off when journals are merged: a suite is complete only at the end.
   */
  live?: boolean;
  /**
   * Adds what the fold alone cannot know to a folded suite's entries before they are counted
   * and reported (the nightly history: the nights each changed case shows, slow drift):
   * called once per suite, it returns what is called on each of its entries in plan order.
   */
  annotate?: (suite: { suite: SuiteReport; baseline: BaselineHead | null }) => (entry: CaseEntry) => void;
  /**
   * Where a large suite's complete case entries wait for its verdicts (a hidden file, removed
   * once the suite is reported); default the system's temp folder.
   */
  spillDir?: string;
  /** Entries of a suite held in memory before they go to disk (default SPILL_HOLD). */
  spillHold?: number;
  /**
   * Makes again, in plan order, the messages of the cases a suite's plan holds as table rows
   * (journal 5; run/plan-messages.ts). Absent, or null for a suite: those cases are reported
   * without their messages.
   */
  messages?: (plan: PlanRecord) => AsyncIterable<CaseMessages> | null;
  /** Decided by the caller instead of the journals: several shards make one complete run, or not. */
  complete?: boolean;
  /** How the run stopped, decided by the caller (a merge of shards: the worst shard's stop). */
  stop?: StopReason | null;
  /** Replaces fields of the run info (a merge gets its own id and command). */
  run?: Partial<Omit<RunInfo, 'status' | 'exit_code' | 'stop_reason' | 'provenance'>>;
  /** The command folding the journals, for the report's provenance (default: the run itself). */
  renderedBy?: Provenance['rendered_by'];
  now?: () => Date;
}

interface SuiteState {
  /**
   * Its cases by slot, the samples each still awaits, and the numbers the suite's tests
   * read of each complete one…
   */
  cases: SuiteCases;
  /** …their entries, waiting for the suite's verdicts (by slot). */
  spill: Spill<CaseEntry>;
  /** Cases whose samples are still coming in, by slot. */
  folds: Map<number, CaseFold>;
  /** Cases sampled with `repeat: auto`, by slot: complete only when the run says so. */
  open: Set<number>;
  folded: boolean;
  /** Cases of a folded suite: its plan is released once its entries are reported. */
  foldedCases?: number;
}

/**
 * Folds journal records into the run's report: samples into per-case state; each case, once
 * complete, into its entry (kept aside, on disk for a large suite) and the few numbers its
 * suite's tests read; each suite, once its cases are in, into its verdicts, and then its
 * entries one at a time to the reporters. What is held is the state of the cases still
 * open and a few numbers per complete case, never the list of samples or entries. The same
 * fold serves a run in progress, `driftcheck report` over a finished or killed run's
 * journal, and a merge of shard journals.
 */
export class RunFold {
  private run: RunRecord | null = null;
  private readonly suites = new Map<string, SuiteState>();
  /** Suites in the order their plans arrived (a run writes them in plan order). */
  private readonly order: SuiteState[] = [];
  private next = 0;
  private end: EndRecord | null = null;
  /** Samples an access stop cut short: sent again on resume, so a later sample of the same key replaces them. */
  private readonly provisional = new Map<string, SampleResult>();
  /** The run's totals (and its counts, report.json's summary), added up a case at a time. */
  private readonly totals = new TotalsTally();
  private readonly modelStops = new ModelStops();
  /** Conversations' steps, for those stopped part-way: paid for and never judged. */
  private readonly steps = new ConversationSteps();
  private readonly reported: SuiteReport[] = [];
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  private implicitOrdinal = 0;
  /** Cases of plans announced but not handed over yet (see plansComplete): reporters are told the whole plan's size. */
  private unread: () => number = () => 0;

  private readonly reporters: Promise<readonly Reporter[]>;

  constructor(private options: FoldOptions) {
    this.reporters = Promise.resolve(options.reporters);
    // A failure to load them surfaces where they are awaited, not as an unhandled rejection.
    this.reporters.catch(() => {});
  }

  /** Takes one record. Suites that become complete are folded in the background, in plan order. */
  add(record: JournalRecord): void {
    switch (record.type) {
      case 'run':
        this.run ??= record;
        return;
      case 'plan':
        this.addPlan(record);
        return;
      case 'end':
        this.end = record;
        return;
      case 'model_stop':
        this.modelStops.add(modelStopOf(record));
        return;
      case 'step':
        // A step after an `end` is a resumed session's, as a sample is.
        this.end = null;
        this.steps.add(record);
        return;
      default:
        this.addSample(record);
    }
  }

  /**
   * Every plan is in (the heads of all the journals being folded together), or the rest
   * will come a suite at a time, in plan order, each before its first sample (`unread`: how
   * many cases they plan). From now on a suite is folded as soon as all its planned samples
   * are in, in plan order, and its state released. A merge reading its shards' journals
   * side by side then holds the suites still open, not every case of the run. Cases
   * sampled with `repeat: auto` are complete only at the end (their journal does not say
   * when the test stopped).
   */
  plansComplete(unread: () => number = () => 0): void {
    this.order.sort((a, b) => a.cases.firstOrdinal() - b.cases.firstOrdinal());
    this.unread = unread;
    this.options = { ...this.options, live: true };
    this.foldReady();
  }

  /**
   * Resolves when the suites scheduled so far are folded and handed to the reporters: a
   * reader that waits for it between chunks never runs ahead of the fold with whole suites
   * of state.
   */
  drained(): Promise<void> {
    return this.chain;
  }

  /** Decides how the run stopped (a merge of shards: the worst shard's stop). */
  setStop(stop: StopReason | null): void {
    this.options = { ...this.options, stop };
  }

  /** Marks a `repeat: auto` case as sampled to the end (its sequential test decided). */
  caseDone(suite: string, caseId: string): void {
    const state = this.suites.get(suite);
    const slot = state?.cases.slotOf(caseId);
    if (!state || slot === undefined || !state.open.delete(slot)) return;
    this.close(state, slot);
    this.foldReady();
  }

  /** Folds every suite still open, then hands the finished head to the reporters. */
  async finish(): Promise<{ head: ReportHead; totals: Totals; files: string[] }> {
    const rest = this.order.filter((s) => !s.folded);
    if (!this.options.live) rest.sort((a, b) => a.cases.firstOrdinal() - b.cases.firstOrdinal());
    for (const state of rest) this.schedule(state);
    await this.chain;
    if (this.failure) throw this.failure;
    // What a report says was spent: each step's cost as its line recorded it.
    const unjudged = addUpSteps(this.steps.stopped(), (step) => step.usage?.cost ?? null);
    if (unjudged) this.totals.addUnjudged(unjudged);
    const totals = this.totals.result();
    const head = this.head(totals);
    const files: string[] = [];
    for (const reporter of await this.reporters)
      files.push(...((await reporter.onEnd?.(head, totals)) ?? []));
    return { head, totals, files };
  }

  /** Lets the reporters remove partial files after a failure. */
  async abort(): Promise<void> {
    for (const state of this.order) await state.spill.discard();
    // Reporters that never loaded wrote nothing to remove.
    const reporters = await this.reporters.catch(() => []);
    for (const reporter of reporters) await reporter.onAbort?.();
  }

  /**
   * One part of a suite's plan (a run makes its record a part at a time, each part before
   * the suite's first sample): `planned`, how many cases all its parts hold, sizes the
   * suite's columns and spill when its first part comes.
   */
  addPlanPart(part: PlanRecord, planned: number): void {
    this.addPlan(part, planned);
  }

  private addPlan(plan: PlanRecord, planned = plan.cases.length): void {
    const known = this.suites.get(plan.suite);
    if (known) {
      // Shards each plan part of a suite: their cases join, and are reported in ordinal order.
      this.track(known, plan);
      return;
    }
    // The suite's cases are held by SuiteCases, as columns: its plan is kept without them.
    const cases = new SuiteCases(plan, planned);
    const state: SuiteState = {
      cases,
      spill: new Spill(this.options.spillDir, this.options.spillHold, planned),
      folds: new Map(),
      open: new Set(),
      folded: false,
    };
    this.track(state, plan);
    this.suites.set(plan.suite, state);
    this.order.push(state);
  }

  /** A plan's cases join their suite (a known one keeps its slot), each awaiting its samples. */
  private track(state: SuiteState, plan: PlanRecord): void {
    for (const c of plan.cases) {
      const slot = state.cases.add(c);
      if (c.repeat === 'auto') state.open.add(slot);
      else state.cases.setDue(slot, c.repeat);
    }
  }

  private addSample(sample: SampleResult): void {
    // A sample after an `end` is a resumed session's: that end no longer says how the run stopped.
    this.end = null;
    // It ends its conversation: the steps journaled before it are its own, and judged with it.
    this.steps.add(sample as SampleRecord);
    this.provisional.delete(sample.key);
    if (sample.error && isRunStop(sample.error)) {
      this.provisional.set(sample.key, sample);
      return;
    }
    this.count(sample);
  }

  private count(sample: SampleResult): void {
    const state = this.suites.get(sample.suite) ?? this.implicitPlan(sample);
    // A case already complete takes no further sample (nor does a folded suite): only a
    // journal holding a sample twice has one, and the first count stands.
    if (state.folded) return;
    let slot = state.cases.slotOf(sample.case);
    if (slot !== undefined && state.cases.closed(slot)) return;
    // A case the plan does not hold joins it at its first sample.
    slot ??= this.implicitCase(state, sample);
    const known = state.folds.get(slot);
    const fold = known ?? new CaseFold();
    fold.add(sample);
    const due = state.cases.due(slot);
    // A case complete at its first sample (most are) never enters the map: a map that
    // grows to one entry and shrinks back each time made a new table each time.
    const complete = due !== 0 && fold.sent >= due;
    if (complete) state.cases.setDue(slot, 0);
    if (!complete || !this.options.live) {
      if (!known) state.folds.set(slot, fold);
      return;
    }
    if (known) state.folds.delete(slot);
    this.put(state, slot, fold);
    this.foldReady();
  }

  /** A case is complete: its entry is put aside and its fold released. */
  private close(state: SuiteState, slot: number): void {
    const fold = state.folds.get(slot);
    if (!fold) return;
    state.folds.delete(slot);
    this.put(state, slot, fold);
  }

  private put(state: SuiteState, slot: number, fold: CaseFold): void {
    const entry = state.cases.close(slot, fold);
    if (entry) state.spill.put(slot, entry);
  }

  /**
   * A journal of driftcheck 0.1 has no plan records: its suites and cases are taken from
   * the samples, in the order they appear, and their messages from the samples.
   */
  private implicitPlan(sample: SampleResult): SuiteState {
    this.addPlan({
      type: 'plan',
      suite: sample.suite,
      file: '',
      service: sample.service,
      requested_model: sample.requested_model,
      cases: [],
    });
    return this.suites.get(sample.suite)!;
  }

  private implicitCase(state: SuiteState, sample: SampleResult): number {
    const messages = (sample as { messages?: PlanRecord['cases'][number]['messages'] }).messages ?? [];
    return state.cases.add({ id: sample.case, ordinal: this.implicitOrdinal++, repeat: 1, messages }, false);
  }

  private foldReady(): void {
    while (this.next < this.order.length) {
      const state = this.order[this.next]!;
      if (state.folded || state.cases.awaiting || state.open.size > 0) return;
      this.schedule(state);
      this.next++;
    }
  }

  private schedule(state: SuiteState): void {
    if (state.folded) return;
    state.folded = true;
    for (const [key, sample] of this.provisional) {
      if (sample.suite !== state.cases.plan.suite) continue;
      this.provisional.delete(key);
      const slot = state.cases.slotOf(sample.case);
      if (slot === undefined || state.cases.closed(slot)) continue;
      const fold = state.folds.get(slot) ?? new CaseFold();
      state.folds.set(slot, fold);
      fold.add(sample);
    }
    for (const slot of [...state.folds.keys()]) this.close(state, slot);
    this.chain = this.chain
      .then(() => this.foldOne(state))
      .catch((error: unknown) => {
        this.failure ??= error;
      });
  }

  private async foldOne(state: SuiteState): Promise<void> {
    if (this.failure) return;
    const read = await this.options.baseline(state.cases.plan.suite);
    const baseline =
      read.baseline && !(read.baseline instanceof SuiteBaseline)
        ? SuiteBaseline.of(read.baseline)
        : read.baseline;
    const path = read.path;
    const verdicts = suiteVerdicts({
      cases: state.cases,
      baseline,
      baselinePath: path,
      complete: this.complete(),
      notRunError: (c) =>
        this.modelStops.reasonFor(state.cases.plan.service, state.cases.plan.requested_model, c.judges) ??
        this.stop()?.error ??
        null,
      options: {
        candidate: isCandidateRun({ ...this.run, ...this.options.run }),
        ...(this.options.alpha !== undefined ? { alpha: this.options.alpha } : {}),
      },
    });
    const suite = verdicts.suite;
    this.reported.push(suite);
    const planned = this.order.reduce((n, s) => n + (s.foldedCases ?? s.cases.size), 0) + this.unread();
    const event: SuiteEvent = { suite, baseline: baseline?.head ?? null, planned };
    const reporters = await this.reporters;
    const annotate = this.options.annotate?.({ suite, baseline: event.baseline });
    // Only a reporter that asks for a suite's cases in one array gets them gathered.
    const gathered: CaseEntry[] | null = reporters.some((r) => r.onSuite) ? [] : null;
    const suiteTotals = new TotalsTally();
    for (const reporter of reporters) await reporter.onSuiteStart?.(event);
    // One case finished and handed to every reporter in turn. Most reporters take a case
    // synchronously: a promise is awaited only when one returns it (awaiting every call of
    // every reporter for each of 20,000 cases cost about 6 % of a run's CPU).
    const finish = (c: PlanCase, open: CaseEntry | null | undefined): Promise<void> | undefined => {
      const entry = verdicts.entry(c, open);
      annotate?.(entry);
      entry.detail = caseDetail(entry);
      // Decided once, here, for every view: how the case ranks, and what it adds up to.
      const review = reviewCase(entry);
      this.totals.add(entry, review);
      suiteTotals.add(entry, review);
      // A literal of one shape, not spreads: this runs once per case of the run.
      const caseEvent = {
        suite: event.suite,
        baseline: event.baseline,
        planned: event.planned,
        review: review.review,
        outcome: review.outcome,
        rate: review.rate,
        entry,
        base: verdicts.base(c.id),
      };
      gathered?.push(entry);
      let pending: Promise<void> | undefined;
      for (const reporter of reporters) {
        if (!reporter.onCase) continue;
        if (pending) pending = pending.then(() => reporter.onCase!(caseEvent));
        else pending = reporter.onCase(caseEvent) ?? undefined;
      }
      return pending;
    };
    // Table cases have no messages in their plan: they are made again from the table.
    const plan = state.cases.plan;
    const filler = plan.tables?.length ? messagesFiller(this.options.messages?.(plan)) : null;
    const held = state.spill.heldValues();
    const opens = held ? null : state.spill.read(state.cases.slotsInOrder())[Symbol.asyncIterator]();
    try {
      for (const { c, slot } of state.cases.inOrder()) {
        const open = held ? held.get(slot) : (await opens!.next()).value;
        if (filler && !c.messages) await filler.fill(c);
        const pending = finish(c, open);
        if (pending) await pending;
      }
    } finally {
      await filler?.close();
      await opens?.return?.(undefined);
      await state.spill.discard();
    }
    this.totals.addSuite(suite);
    suiteTotals.addSuite(suite);
    const ended: SuiteEndEvent = { ...event, totals: suiteTotals.result() };
    for (const reporter of reporters) await reporter.onSuiteEnd?.(ended);
    if (gathered) {
      const whole = baseline?.toBaseline() ?? null;
      for (const reporter of reporters)
        await reporter.onSuite?.({ ...ended, cases: gathered, baseline: whole });
    }
    // Reported: its plan (every case's messages) and its numbers are not needed again.
    state.foldedCases = state.cases.size;
    state.cases = new SuiteCases(plan);
  }

  /**
   * Whether a baseline case absent from the plan is missing: the plan covered whole suites
   * (no filter, no shard, or every shard merged). A paused run still planned every case.
   */
  private complete(): boolean {
    return this.options.complete ?? this.run?.complete ?? false;
  }

  /** How the run stopped: its last `end` record; none at all means it was killed. */
  private stop(): StopReason | null {
    if (this.options.stop !== undefined) return this.options.stop;
    if (this.end) return this.end.stop;
    return KILLED;
  }

  private head(totals: Totals): ReportHead {
    const stop = this.stop();
    const now = (this.options.now ?? (() => new Date()))().toISOString();
    const base = this.run;
    const info = {
      id: base?.id ?? 'unknown',
      status: runStatusFor(stop),
      exit_code: exitCodeFor(totals.counts, stop, this.modelStops.size),
      started_at: base?.started_at ?? now,
      finished_at: this.end?.finished_at ?? now,
      command: base?.command ?? [],
      driftcheck_version: base?.driftcheck_version ?? '',
      sim: base?.sim ?? false,
      candidate_model: base?.candidate_model ?? null,
      candidate_provider: base?.candidate_provider ?? null,
      skipped_suites: base?.skipped_suites ?? [],
      shard: base?.shard ?? null,
      stop_reason: stop?.error ?? null,
      // Only a run that stopped a model says so: every other report.json stays as it was.
      ...(this.modelStops.size ? { model_stops: this.modelStops.list() } : {}),
      ...(base?.recheck ? { recheck: recheckInfo(base.recheck) } : {}),
      ...(this.end?.bail ? { bail: this.end.bail } : {}),
      // Only a run that stopped a conversation part-way says so: every other report.json stays as it was.
      ...(totals.unjudged ? { unjudged_steps: totals.unjudged } : {}),
      ...this.options.run,
    };
    // What the run was is read from the facts just written, not from a second copy of them.
    const run: RunInfo = {
      ...info,
      provenance: provenanceFrom(info, this.complete(), this.options.renderedBy ?? 'run'),
    };
    return {
      schema_version: REPORT_SCHEMA_VERSION,
      run,
      summary: { ...totals.counts },
      suites: this.reported,
    };
  }
}

/** What a report shows of a recheck: the journal's record without the selection it re-planned with. */
function recheckInfo({ of, not_answered, dropped }: RecheckInfo): RecheckInfo {
  return { of, not_answered, dropped };
}

/**
 * Puts back the messages of a case planned as a table row (one without messages), reading
 * `made` (the suite's cases made again, in plan order) alongside the plan: a case the plan
 * does not hold (a shard's, a filtered one) is passed over.
 */
function messagesFiller(made: AsyncIterable<CaseMessages> | null | undefined) {
  const it = made?.[Symbol.asyncIterator]();
  return {
    async fill(c: PlanCase): Promise<void> {
      if (!it) return;
      for (let next = await it.next(); !next.done; next = await it.next())
        if (next.value.id === c.id) {
          c.messages = next.value.messages;
          return;
        }
    },
    /** Lets go of what makes them (a table being read), when they stop being asked for. */
    async close(): Promise<void> {
      await it?.return?.(undefined);
    },
  };
}
