import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import { acceptReport } from '../baseline/accept.js';
import { baselineReader } from '../stored/baseline/cache.js';
import { readBaseline } from '../stored/baseline/store.js';
import { SuiteBaseline } from '../stored/baseline/suite-baseline.js';
import { removeStaleSpills } from '../fold/spill.js';
import { judgeTargets } from '../suite/judge-targets.js';
import { usesBaseline } from '../checks/run.js';
import { unconfiguredServices } from '../config/services.js';
import { isRunStop } from '../core/error-kinds.js';
import { InputError, UsageError } from '../util/errors.js';
import { RunFold } from '../fold/fold.js';
import { refusals } from '../fold/provenance.js';
import { readJournal, readJournalPlans } from '../stored/journal/read.js';
import {
  type EndRecord,
  JOURNAL_VERSION,
  journalPlan,
  modelStopOf,
  modelStopRecord as journalModelStop,
  type RunRecord,
} from '../stored/journal/records.js';
import { openJournal } from '../stored/journal/write.js';
import { updateLatest } from '../report/json.js';
import { createReporters, type ReporterContext } from '../report/outputs.js';
import type { Reporter } from '../fold/reporter.js';
import { openReport } from '../stored/report/read.js';
import { openClients } from '../service/setup.js';
import { type HeldLock, lockFolder } from '../util/lock.js';
import type { Config, ServiceConfig } from '../config/types.js';
import type { Suite } from '../suite/types.js';
import type { Baseline, BaselineCase } from '../stored/baseline/types.js';
import type { ReportHead } from '../stored/report/types.js';
import type { SampleResult } from '../stored/journal/records.js';
import type { CompletionRequest } from '../service/types.js';
import type { Prices } from '../core/catalog.js';
import type { CaseError } from '../core/answer.js';
import { type CostCap, createCostMeter, sampleSpent } from '../run/cost-cap.js';
import { type CostEstimate, overCapMessage } from '../run/cost-estimate.js';
import { capPrices, estimateRun } from '../run/estimate-run.js';
import { Bail } from '../run/bail.js';
import { executePlan } from '../run/execute.js';
import { ModelStops, modelStopRecord } from '../run/model-stops.js';
import { type CatalogReader, catalogReader } from '../service/check-models.js';
import { journalMessages, type PromptsMissing } from '../run/plan-messages.js';
import { newRunId, type RunMeta, writeRunMeta } from '../run/meta.js';
import {
  caseKey,
  heldCases,
  emptySelectionOf,
  type PlannedCaseGroup,
  planSamples,
  planHeldSuite,
  planStream,
  selectionOf,
  type SuiteSelection,
} from '../run/plan.js';
import { type PlanOptions } from '../stored/journal/records.js';
import { type CasesOf, casesNotHeld } from '../suite/load.js';
import { changedTables, planLinePart, planRecordParts } from '../run/plan-records.js';
import type { PlanItem } from '../run/execute.js';
import { ADAPTIVE_SAMPLING } from '../stats/adaptive.js';

export interface RunSuitesOptions {
  config: Config;
  /** The suites to run, in order: with their cases, or loaded without them (`casesOf` reads those). */
  suites: Suite[];
  /** A suite's cases one at a time (default: those it holds); the CLI reads a suite loaded without them again. */
  casesOf?: CasesOf;
  /**
   * What selectionOf counted of `suites` for `plan`, when the caller counted it already (the
   * CLI, for its baseline warnings): a filtered run then reads a large suite once less. Used
   * when `plan` is the run's own plan object.
   */
  selection?: { plan: PlanOptions; suites: SuiteSelection[] };
  /** Where keys are read from (`api_key_env`). */
  env: NodeJS.ProcessEnv;
  /**
   * The services' model lists, read at most once (the CLI's, already read for candidates):
   * a model the service does not have is reported with the closest ids. Default: read with `env`.
   */
  catalogs?: CatalogReader;
  /** Parent of every run folder (`reports/`). */
  reportDir: string;
  baselineDir: string;
  /** What to store in run.json and the report; for a resumed run, the original meta. */
  meta: Omit<RunMeta, 'id' | 'started_at'> & Partial<Pick<RunMeta, 'id' | 'started_at'>>;
  /** Continue this run folder: samples already in its journal are not sent again. */
  resumeDir?: string;
  version: string;
  /** Stop scheduling (first SIGINT/SIGTERM; its reason names the signal). */
  interrupt?: AbortSignal;
  /** Abandon in-flight requests too (grace period over, or a second signal). */
  abortInFlight?: AbortSignal;
  onThrottle?: (service: string, concurrency: number) => void;
  dispatcher?: Dispatcher;
  /** Headers the caller adds to a request (the CLI: the simulator's directives, loopback only). */
  requestHeaders?: (service: ServiceConfig, request: CompletionRequest) => Record<string, string>;
  now?: () => Date;
  onResult?: (result: SampleResult) => void;
  /** Called once the plan is known, before anything is sent. */
  onPlan?: (info: {
    runDir: string;
    planned: number;
    alreadyDone: number;
    cases: number;
    suites: number;
    /** With a cost cap: what is left to send is estimated at, and what the run spent before. */
    cost?: { cap: CostCap; estimate: CostEstimate; spent: number };
  }) => void;
  /**
   * The user's cost cap (`--max-cost`, `max_cost`). A new run is estimated before anything is
   * sent and refused (UsageError, exit 2) when the estimate exceeds the cap, unless
   * `ignoreEstimate`; as it runs, every answer's cost (judges' included) counts, and reaching
   * the cap pauses it (exit 3). A resumed run counts what its journal says it spent.
   */
  costCap?: {
    cap: CostCap;
    ignoreEstimate?: boolean;
    /** USD per 1M tokens read from the services' model lists; the config's `prices:` win. */
    listPrices?: Prices;
    /** What earlier runs of the same command spent (`--models`): it counts toward the cap. */
    spentBefore?: number;
  };
  /** Reporters by name (console, json, html, junit, markdown); report.json is always written. Default: the file reporters. */
  reporters?: ReadonlySet<string>;
  /** Where the console reporter prints, when it is asked for. */
  console?: Pick<ReporterContext, 'write' | 'color' | 'columns'>;
  /** Reporters of the caller's own, after the named ones: `--models` keeps each folded run to compare it. */
  observers?: readonly Reporter[];
  /**
   * The nightly history folder (`run --history`, `history: { dir }`): earlier nights inform
   * tonight's report (when each changed case began changing, slow drift), and tonight is
   * appended to it once the run completes — when it is a nightly, complete run of the real
   * services, or `force` says to append it anyway (its line then says it was forced).
   */
  history?: { dir: string; cwd?: string; force?: boolean };
  /** Where the suites' file names are relative to, as loadSuites was given it (default process.cwd()). */
  cwd?: string;
  /** Told when a table changed after its cases were sent: their prompts are left out of the reports. */
  onPromptsMissing?: PromptsMissing;
  /** Told when the run folder's or the history's lock, left by a killed process, is taken over. */
  onStaleLock?: (note: string) => void;
}

export interface RunSuitesResult {
  /** The report's head: run (status, exit code), summary and suites. The cases are in report.json. */
  report: ReportHead;
  runDir: string;
  /** Baseline files written by `update_baselines`. */
  baselinesWritten: string[];
  /** Why update_baselines wrote nothing, when it did not. */
  baselinesSkipped: string | null;
  /** Report files written into the run folder. */
  files: string[];
  /** Journal lines that could not be read back on resume (a torn last line). */
  journalSkipped: number;
  /** Samples in which a key value was found and replaced. */
  redacted: number;
  /** With a cost cap: what the run has spent, all its sessions included (from the journal on resume). */
  spent: number | null;
  /**
   * What the history said: the file tonight was appended to (null when it was not), why it
   * was not (a candidate, simulator, shard or filtered run), and lines it passed over.
   */
  history: { appended: string | null; refused: string[]; problems: string[] } | null;
}

/**
 * A suite loaded without its cases of at most this many is read once when the run reaches
 * it and held while it runs (a 1,000-case file: about 1 MB); a larger one (a table) is read
 * as it is planned and again as it is sent, never held.
 */
const HOLD_SUITE = 5_000;

/**
 * Planned samples handed to the sender at a time: one wait per batch, not per sample. Small,
 * like the sender's lookahead (run/feeder.ts): a batch waits in memory until it is sent.
 */
const PLAN_BATCH = 64;

/**
 * Cases of a suite's plan record made, journaled and folded at a time (see planSuite). A
 * part's cases are held together while it is made: at 1,000, a 100,000-row JSONL run with
 * baselines peaked at 223–232 MB (six runs), at 250 at 207–211 MB (three; 100: 208–210),
 * and in `npm run bench` 217 → 203 MB (medians of three); first runs and wall times
 * unchanged. It is what V8 does with a burst of objects that outlive young collections
 * (allocation-site pretenuring: `--no-allocation-site-pretenuring` gave 209–211 MB at 1,000).
 */
const PLAN_PART = 250;

const FILE_REPORTERS: ReadonlySet<string> = new Set(['json', 'html', 'junit', 'markdown']);

/**
 * The main job, as a composition of the pipeline's stages: plan → pre-flight → send, each
 * sample to the journal and the fold → the fold's reporters → baselines. The CLI's `run`
 * is a thin wrapper over this.
 */
export async function runSuites(options: RunSuitesOptions): Promise<RunSuitesResult> {
  const locks: HeldLock[] = [];
  try {
    return await runLocked(options, locks);
  } finally {
    for (const lock of locks) lock.release();
  }
}

/** runSuites, noting the lock it takes in `locks` for its caller to release. */
async function runLocked(options: RunSuitesOptions, locks: HeldLock[]): Promise<RunSuitesResult> {
  const now = options.now ?? (() => new Date());
  const startedAt = options.meta.started_at ?? now().toISOString();
  const id = options.meta.id ?? newRunId(new Date(startedAt));
  const meta: RunMeta = { ...options.meta, id, started_at: startedAt };
  const runDir = options.resumeDir ?? join(options.reportDir, id);

  const casesOf: CasesOf = options.casesOf ?? heldCases;
  // What the plan selects of each suite, counted before anything is read twice or sent.
  const selection =
    options.selection?.plan === meta.plan
      ? options.selection.suites
      : await selectionOf(options.suites, meta.plan, casesOf);
  // A run that would check nothing is not a pass: say what selected nothing (exit 2). An
  // empty shard of a small suite is not that: it runs, empty, so that the merge finds it.
  if (selection.length === 0) {
    const nothing = await emptySelectionOf(options.suites, meta.plan, casesOf);
    if (nothing) throw new UsageError(nothing);
  }
  const plannedSuites = selection.map((s) => s.suite);
  const services = checkServices(plannedSuites, options.config, meta.plan.service);
  if (options.resumeDir) {
    // Refused before anything is sent or locked: the journal keeps what it holds.
    const changed = changedTables(
      (await readJournalPlans(join(runDir, 'results.jsonl'))).plans,
      plannedSuites,
    );
    if (changed.length > 0) throw new InputError(changed);
  }
  const capped = options.costCap ?? null;
  // A capped run is estimated over every planned case before anything is sent: it holds the
  // plan (a run without a cap reads each suite's cases when it reaches the suite).
  const cases = capped ? await collect(planStream(plannedSuites, meta.plan, casesOf)) : null;
  // Read before the first request, one at a time: a corrupt baseline is an input error that
  // costs nothing. A capped run keeps what it read for its estimate (else each is let go).
  // Suites whose cases need their baseline while they run hold it: read (and checked) when
  // the run reaches them, and the fold takes it from memory.
  const baselines = baselineReader(options.baselineDir);
  const checked = new Map<string, Baseline | null>();
  for (const s of plannedSuites) {
    // Uncapped, a baseline is checked case by case and let go; the estimate reads it whole.
    if (capped) checked.set(s.suite, await readBaseline(options.baselineDir, s.suite));
    else await SuiteBaseline.check(options.baselineDir, s.suite);
  }
  const prices = capped ? capPrices(options.config, capped.listPrices) : {};
  const estimate = (samplesLeft?: (group: PlannedCaseGroup) => number) =>
    estimateRun({
      cases: cases ?? [],
      config: options.config,
      baseline: async (suite) => checked.get(suite) ?? null,
      prices,
      ...(samplesLeft ? { samplesLeft } : {}),
    });
  // A new run over the user's cap is refused before anything is sent or written. A resumed
  // run was estimated when it started: the cap alone holds it now, its spent cost counting.
  let estimated = capped && !options.resumeDir ? await estimate() : null;
  if (capped && estimated && !capped.ignoreEstimate) {
    const over = overCapMessage(estimated, capped.cap, { spentBefore: capped.spentBefore ?? 0 });
    if (over) throw new UsageError(over);
  }
  const opened = openClients(options.config, services, options.env, {
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.requestHeaders ? { requestHeaders: options.requestHeaders } : {}),
  });
  await mkdir(runDir, { recursive: true });
  // One process per run folder: a second resume of a run (or a resume of a running one)
  // would send its unfinished cases again and journal them twice. It is refused (exit 2).
  const lock = await lockFolder(runDir, {
    what: `run folder ${runDir}`,
    ...(options.onStaleLock ? { onStale: options.onStaleLock } : {}),
  }).catch(async (error: unknown) => {
    await opened.close();
    throw error;
  });
  locks.push(lock);
  if (!options.resumeDir) await writeRunMeta(runDir, meta);
  // A session killed while a large suite waited on disk left its spill behind.
  else await removeStaleSpills(runDir);
  // The reporters' modules load while the first requests are in flight: the fold waits for
  // them only when it hands its first suite over (about 20 ms off the first request's start).
  const reporters = createReporters(options.reporters ?? FILE_REPORTERS, {
    dir: runDir,
    write: options.console?.write ?? (() => {}),
    color: options.console?.color ?? false,
    ...(options.console?.columns ? { columns: options.console.columns } : {}),
  }).then((files) => [...files, ...(options.observers ?? [])]);
  const tonight = options.history
    ? await openHistory(options.history.dir, { id, started_at: startedAt }, runDir)
    : null;
  const fold = new RunFold({
    baseline: baselines.read,
    reporters,
    live: true,
    // A large suite's complete cases wait for its verdicts beside its journal, not in memory.
    spillDir: runDir,
    // Cases planned as table rows get their prompts back from the journaled template and the
    // table as they are reported, as `report` makes them: the table read once more, each
    // piece checked against its hash from when the suite was loaded.
    messages: journalMessages(
      options.cwd ?? process.cwd(),
      options.onPromptsMissing ?? (() => {}),
      (plan, t) => {
        const suite = options.suites.find((s) => s.suite === plan.suite);
        const now = suite?.tables?.[t];
        const then = plan.tables?.[t];
        if (!now || !then || now.file !== then.file || now.digest !== then.digest) return undefined;
        return suite!.source?.tablePieces[t];
      },
    ),
    ...(options.now ? { now: options.now } : {}),
    ...(tonight ? { annotate: tonight.annotator.annotate } : {}),
  });

  const journalFile = join(runDir, 'results.jsonl');
  // Models a service said it does not have: this session's, and a resumed run's from its journal.
  const modelStops = new ModelStops();
  const previous = options.resumeDir
    ? await replay(journalFile, fold, capped ? prices : null, modelStops)
    : { done: new Set<string>(), adaptive: [], skipped: 0, run: false, planned: new Set<string>(), spent: 0 };
  const journal = openJournal(journalFile);
  // What judges comparing with the baseline read: the plan records a digest of it.
  const baselineContent = (suite: string, caseId: string) =>
    baselines.heldCase(suite, caseId)?.content ?? null;
  if (!previous.run) {
    const record = runRecord(meta, options.version);
    journal.appendRecord(record);
    fold.add(record);
  }
  const planned = selection.reduce((n, s) => n + s.samples, 0);
  const done = previous.done;
  const spentBefore = (capped?.spentBefore ?? 0) + previous.spent;
  const meter = capped ? createCostMeter(capped.cap, spentBefore, prices) : null;
  const bail = meta.bail ? new Bail(meta.bail) : null;
  if (capped && options.resumeDir) estimated = await estimate((group) => samplesLeft(group, done));
  options.onPlan?.({
    runDir,
    planned,
    alreadyDone: Math.min(done.size, planned),
    cases: selection.reduce((n, s) => n + s.cases, 0),
    suites: plannedSuites.length,
    ...(capped && estimated ? { cost: { cap: capped.cap, estimate: estimated, spent: spentBefore } } : {}),
  });

  /** A case that reads its baseline while it runs: its suite's baseline is held from before its plan on. */
  const hold = (group: PlannedCaseGroup): Promise<void> | null =>
    readsBaselineWhileRunning(group) && !baselines.isHeld(group.suite.suite)
      ? baselines.hold([group.suite.suite])
      : null;
  /** A suite's planned cases read as they come (a table), its baseline held first when they read it. */
  async function* streamed(s: SuiteSelection): AsyncGenerator<PlannedCaseGroup> {
    for await (const group of planStream([s.suite], meta.plan, casesOf, s.start)) {
      const holding = hold(group);
      if (holding) await holding;
      yield group;
    }
  }
  /**
   * A suite's planned cases in memory, or null for a suite too large to hold (read as it is
   * planned, and again as it is sent): a capped run's, a suite held since it was loaded, or
   * one loaded without its cases and small enough to read once and hold while it runs.
   */
  const cappedGroups = cases ? bySuite(cases) : null;
  const heldGroups = async (s: SuiteSelection): Promise<PlannedCaseGroup[] | null> => {
    const notHeld = casesNotHeld(s.suite);
    if (!cappedGroups && notHeld && s.suite.counts!.cases > HOLD_SUITE) return null;
    const groups = cappedGroups?.get(s.suite) ?? [
      ...planHeldSuite(
        s.suite,
        notHeld ? await collect(casesOf(s.suite)) : s.suite.cases,
        meta.plan,
        s.start,
      ),
    ];
    if (groups.some(readsBaselineWhileRunning)) await baselines.hold([s.suite.suite]);
    return groups;
  };
  /**
   * Journals a suite's plan record and hands it to the fold, a part at a time (PLAN_PART
   * cases), its journal line gathered as bytes outside the heap and written once whole.
   * Made whole, a 100,000-case record (15 MB of objects, and its 5 MB line) was alive when a
   * full collection came, and the old generation was let grow to four times that before the
   * next: 258 MB at the peak. `planned`: how many cases it holds.
   */
  const planSuite = async (
    groups: Iterable<PlannedCaseGroup> | AsyncIterable<PlannedCaseGroup>,
    planned: number,
  ): Promise<void> => {
    const line: Buffer[] = [];
    for await (const part of planRecordParts(groups, baselineContent, PLAN_PART)) {
      line.push(Buffer.from(planLinePart(journalPlan(part), line.length === 0)));
      fold.addPlanPart(part, planned);
    }
    if (line.length === 0) return;
    line.push(Buffer.from(']}'));
    journal.appendLineParts(line);
  };
  /** A planned case's samples not yet sent, each `repeat: auto` case announced first. */
  const itemsOf = (group: PlannedCaseGroup, into: PlanItem[]): void => {
    const from = into.length;
    if (group.adaptive) {
      let todo = 0;
      for (const sample of planSamples([group])) if (!done.has(sample.key)) todo++;
      into.push({ adaptiveCase: group, todo });
    }
    for (const sample of planSamples([group])) if (!done.has(sample.key)) into.push(sample);
    bail?.plan(group.suite.suite, group.case.id, group.adaptive ? null : group.repeats, into.length - from);
  };
  /**
   * The plan, a suite at a time as the run reaches it, in batches (a wait per batch, not per
   * sample): its plan record journaled before its first sample, then its samples not yet
   * sent. A suite held in memory is gone through without a wait between its cases.
   */
  async function* plan(): AsyncGenerator<PlanItem[]> {
    for (const s of selection) {
      const held = await heldGroups(s);
      if (!previous.planned.has(s.suite.suite)) await planSuite(held ?? streamed(s), s.cases);
      let batch: PlanItem[] = [];
      for (const group of held ?? []) {
        itemsOf(group, batch);
        if (batch.length < PLAN_BATCH) continue;
        yield batch;
        batch = [];
      }
      if (!held)
        for await (const group of streamed(s)) {
          itemsOf(group, batch);
          if (batch.length < PLAN_BATCH) continue;
          yield batch;
          batch = [];
        }
      if (batch.length > 0) yield batch;
    }
  }

  let redacted = 0;
  let outcome: Awaited<ReturnType<typeof executePlan>>;
  const planSource = plan();
  // Each model stop is journaled once its record is made (where the model is pinned, the
  // catalog's closest ids): before the run's end record, so every reader of the journal knows it.
  // In the order the stops were decided, whichever catalog answers first.
  let stopRecords: Promise<void> = Promise.resolve();
  const readCatalogs = options.catalogs ?? catalogReader(options.env);
  const onModelStop = (stop: { service: string; model: string; error: CaseError }) => {
    const made = modelStopRecord(stop, options.suites, meta.plan, options.config, readCatalogs);
    stopRecords = stopRecords.then(async () => {
      const stopped = await made;
      modelStops.add(stopped);
      const record = journalModelStop(stopped);
      journal.appendRecord(record);
      fold.add(record);
    });
  };
  try {
    outcome = await executePlan({
      plan: planSource,
      ...(options.config.prices ? { prices: options.config.prices } : {}),
      ...(meter ? { costMeter: meter } : {}),
      baselineCase: baselines.heldCase,
      adaptive: {
        done: previous.adaptive,
        baselineSamples: (suite, caseId) => samplesOf(baselines.heldCase(suite, caseId)),
        onCaseDone: (suite, caseId, samples) => {
          bail?.caseDone(suite, caseId, samples);
          fold.caseDone(suite, caseId);
        },
      },
      ...(bail ? { bail } : {}),
      clients: opened.clients,
      ...(meta.concurrency ? { concurrency: meta.concurrency } : {}),
      journal,
      modelStops,
      onModelStop,
      ...(options.interrupt ? { interrupt: options.interrupt } : {}),
      ...(options.abortInFlight ? { abortInFlight: options.abortInFlight } : {}),
      now,
      onResult: (result) => {
        if (result.redacted) redacted++;
        fold.add(result);
        options.onResult?.(result);
      },
      ...(options.onThrottle ? { onThrottle: options.onThrottle } : {}),
    });
    await stopRecords;
    const end: EndRecord = {
      type: 'end',
      finished_at: now().toISOString(),
      status:
        outcome.stop === null ? 'completed' : outcome.stop.kind === 'interrupted' ? 'interrupted' : 'paused',
      stop: outcome.stop,
    };
    const bailed = bail?.bailed();
    if (bailed) end.bail = bailed;
    journal.appendRecord(end);
    fold.add(end);
  } catch (error) {
    await fold.abort();
    throw error;
  } finally {
    // A run stopped early (interrupted, paused, failed) leaves the plan where it was: closed
    // here, the table it was reading is closed too.
    await planSource.return(undefined);
    journal.close();
    await opened.close();
  }

  const { head, files } = await finishFold(fold);
  await updateLatest(options.reportDir, id);
  const history =
    tonight && options.history
      ? await appendTonight(options.history, tonight, head, options.onStaleLock)
      : null;
  let baselinesWritten: string[] = [];
  let baselinesSkipped: string | null = null;
  if (meta.update_baselines) {
    if (head.run.status !== 'completed')
      baselinesSkipped = `the run is ${head.run.status}; finish it with --resume first`;
    else baselinesWritten = await acceptReport(options.baselineDir, await openReport(runDir));
  }
  return {
    report: head,
    runDir,
    files,
    baselinesWritten,
    baselinesSkipped,
    journalSkipped: previous.skipped,
    redacted,
    spent: meter ? meter.spent : null,
    history,
  };
}

/** Reads the history (lines it cannot read are passed over and said) and prepares tonight's annotations. */
async function openHistory(dir: string, run: { id: string; started_at: string }, spillDir: string) {
  const { historyAnnotator, HistoryNights } = await import('../history/index.js');
  const history = await HistoryNights.read(dir);
  return {
    annotator: historyAnnotator(history, run, spillDir),
    problems: history.problems.map((p) => `${p.file}:${p.line}: ${p.reason}`),
  };
}

/**
 * Appends tonight's run to the history: a run that stopped early is recorded too (its
 * status says so), so the trend page can show paused nights. A candidate, simulator, shard
 * or filtered run is not a night: it is appended only when forced, and marked so.
 */
async function appendTonight(
  history: { dir: string; cwd?: string; force?: boolean },
  tonight: NonNullable<Awaited<ReturnType<typeof openHistory>>>,
  head: ReportHead,
  onStaleLock: ((note: string) => void) | undefined,
): Promise<{ appended: string | null; refused: string[]; problems: string[] }> {
  const refused = refusals('run_history', head.run);
  if (refused.length && !history.force) {
    await tonight.annotator.discard();
    return { appended: null, refused, problems: tonight.problems };
  }
  const { appendRun, gitInfo, historyRun } = await import('../history/index.js');
  // The case lines were made as the suites were folded: the report is not read back.
  const run = historyRun(head.run, head.suites);
  if (run.provenance && refused.length) run.provenance.forced = true;
  const suites = run.suites.map((s) => ({
    ...s,
    baseline_source_run: tonight.annotator.sources.get(s.suite) ?? null,
  }));
  const git = await gitInfo(process.env, history.cwd ?? process.cwd());
  const { file, added } = await appendRun(
    history.dir,
    { ...run, suites, git },
    tonight.annotator.lines(),
    onStaleLock ? { onStaleLock } : {},
  );
  return { appended: added ? file : null, refused: [], problems: tonight.problems };
}

async function finishFold(fold: RunFold): Promise<{ head: ReportHead; files: string[] }> {
  try {
    return await fold.finish();
  } catch (error) {
    await fold.abort();
    throw error;
  }
}

/**
 * Feeds a resumed run's journal to the fold, and returns what not to send again: every
 * sample already journaled, except those an auth stop cut short (the key was the problem,
 * not the case), and the samples of adaptive cases (their sequential test continues); and,
 * given the prices a cost cap counts with, what the journaled samples cost, judges included.
 */
async function replay(file: string, fold: RunFold, prices: Prices | null, modelStops: ModelStops) {
  const done = new Set<string>();
  const adaptive: SampleResult[] = [];
  const stats = { skipped: [] as number[] };
  let run = false;
  const planned = new Set<string>();
  let spent = 0;
  for await (const record of readJournal(file, stats)) {
    // The earlier session's end no longer holds: this one appends its own.
    if (record.type === 'end') continue;
    if (record.type === 'run') run = true;
    if (record.type === 'plan') planned.add(record.suite);
    if (record.type === 'model_stop') modelStops.add(modelStopOf(record));
    fold.add(record);
    if (record.type !== undefined) continue;
    if (prices) spent += sampleSpent(record, prices);
    if (!(record.error && isRunStop(record.error))) done.add(record.key);
    if (record.sampling === 'auto') adaptive.push(record);
  }
  return { done, adaptive, skipped: stats.skipped.length, run, planned, spent };
}

function runRecord(meta: RunMeta, version: string): RunRecord {
  return {
    type: 'run',
    journal_version: JOURNAL_VERSION,
    id: meta.id,
    started_at: meta.started_at,
    command: meta.command,
    driftcheck_version: version,
    sim: meta.sim,
    candidate_model: meta.plan.model ?? null,
    candidate_provider: meta.plan.provider ?? null,
    skipped_suites: [...(meta.plan.skip ?? [])],
    shard: meta.plan.shard ?? null,
    complete: !meta.plan.filter && !meta.plan.shard && !meta.plan.cases,
  };
}

/** Every service the plan will call (suites' and judges'), all configured — or an input error. */
function checkServices(suites: readonly Suite[], config: Config, override?: string): string[] {
  const diagnostics = unconfiguredServices([...suites], config, override);
  if (diagnostics.length) throw new InputError(diagnostics);
  const judges = suites.flatMap((suite) => judgeTargets(suite).map((t) => t.service));
  return [...new Set([...suites.map((s) => override ?? s.service), ...judges])];
}

/** Samples of a case a resumed run may still send (`repeat: auto`: up to its most). */
function samplesLeft(group: PlannedCaseGroup, done: ReadonlySet<string>): number {
  const most = group.adaptive ? ADAPTIVE_SAMPLING.cap : group.repeats;
  let left = 0;
  for (let repeat = 0; repeat < most; repeat++)
    if (!done.has(caseKey(group.suite.suite, group.case.id, repeat))) left++;
  return left;
}

/** A case that reads its baseline while it runs: `repeat: auto`, or a check that uses it (a judge comparing against it). */
function readsBaselineWhileRunning(group: PlannedCaseGroup): boolean {
  return group.adaptive || group.case.expect.some(usesBaseline);
}

/** A baseline case's samples ({0, 0} when it has none — adaptive sampling then runs to the cap). */
function samplesOf(entry: BaselineCase | null): { pass: number; total: number } {
  if (!entry) return { pass: 0, total: 0 };
  return entry.samples ?? { pass: entry.status === 'pass' ? 1 : 0, total: 1 };
}

/** A capped run's planned cases by suite, in plan order. */
function bySuite(cases: readonly PlannedCaseGroup[]): Map<Suite, PlannedCaseGroup[]> {
  const out = new Map<Suite, PlannedCaseGroup[]>();
  for (const c of cases) {
    const list = out.get(c.suite);
    if (list) list.push(c);
    else out.set(c.suite, [c]);
  }
  return out;
}

async function collect<T>(items: AsyncIterable<T> | Iterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
