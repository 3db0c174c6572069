import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isRunStop } from '../core/error-kinds.js';
import type { Prices } from '../core/catalog.js';
import { lockFolder } from '../util/lock.js';
import type { Resources } from '../util/resources.js';
import { openClients } from '../service/setup.js';
import type { ServiceClient } from '../service/types.js';
import { readJournal } from '../stored/journal/read.js';
import {
  JOURNAL_VERSION,
  modelStopOf,
  type RunRecord,
  type SampleResult,
  type StepLine,
} from '../stored/journal/records.js';
import { addUpSteps, ConversationSteps } from '../stored/journal/unjudged.js';
import { type Journal, openJournal } from '../stored/journal/write.js';
import { Bail } from '../run/bail.js';
import { createCostMeter, type CostMeter, sampleSpent, stepSpent } from '../run/cost-cap.js';
import { writeRunMeta, type RunMeta } from '../run/meta.js';
import { ModelStops } from '../run/model-stops.js';
import { caseKey, type PlannedCaseGroup } from '../run/plan.js';
import { journalMessages } from '../run/plan-messages.js';
import { RunFold } from '../fold/fold.js';
import { removeStaleSpills } from '../fold/spill.js';
import { createReporters } from '../report/outputs.js';
import { ADAPTIVE_SAMPLING } from '../stats/adaptive.js';
import type { Checked } from './run-preflight.js';
import type { PlanInfo, RunJob } from './run-once.js';

/** A run's folder opened: what its samples are sent with, journaled in and folded into. */
export interface Opened {
  clients: ReadonlyMap<string, ServiceClient>;
  journal: Journal;
  fold: RunFold;
  /** Called once the reports are written: a failure after it keeps them. */
  keepReports: () => void;
  /** The history's nights, read for tonight's report (null without a history). */
  tonight: Tonight | null;
  /** What a resumed run's journal already holds (nothing for a new run). */
  previous: Replayed;
  /** Models a service said it does not have: this session's, and a resumed run's from its journal. */
  modelStops: ModelStops;
  meter: CostMeter | null;
  bail: Bail | null;
  /** What the cap counts as spent before this session: earlier runs of the command, and the journal's. */
  spentBefore: number;
}

/**
 * Opens the run: clients for its services (their keys resolved first: a missing one costs
 * nothing), the run folder and its lock (one process per folder: a second resume would send
 * its unfinished cases again), run.json, the reporters, the history, the fold, and the
 * journal (a resumed run's replayed into the fold first). Everything is held in `scope`.
 */
export async function openRun(
  { request, plan, run, hooks }: RunJob,
  checked: Checked,
  scope: Resources,
): Promise<Opened> {
  const { meta, runDir } = checked;
  const { clients } = scope.hold(
    openClients(plan.services.config, checked.services, plan.services.env, {
      ...(hooks.dispatcher ? { dispatcher: hooks.dispatcher } : {}),
      ...(hooks.requestHeaders ? { requestHeaders: hooks.requestHeaders } : {}),
    }),
    (opened) => opened.close(),
  );
  await mkdir(runDir, { recursive: true });
  const lock = await lockFolder(runDir, {
    what: `run folder ${runDir}`,
    ...(hooks.onStaleLock ? { onStale: hooks.onStaleLock } : {}),
  });
  scope.hold(lock, (held) => held.release());
  if (!run.resumeDir) await writeRunMeta(runDir, meta);
  // A session killed while a large suite waited on disk left its spill behind.
  else await removeStaleSpills(runDir);
  // The reporters' modules load while the first requests are in flight: the fold waits for
  // them only when it hands its first suite over (about 20 ms off the first request's start).
  const reporters = createReporters(request.reporters, {
    dir: runDir,
    write: hooks.console?.write ?? (() => {}),
    color: hooks.console?.color ?? false,
    ...(hooks.console?.columns ? { columns: hooks.console.columns } : {}),
  }).then((files) => [...files, ...(hooks.observers ?? [])]);
  const tonight = plan.historyDir ? await openHistory(plan.historyDir, meta, runDir) : null;
  if (tonight) scope.undoOnFailure(() => tonight.annotator.discard());
  const fold = new RunFold({
    baseline: checked.baselines.read,
    reporters,
    live: true,
    // A large suite's complete cases wait for its verdicts beside its journal, not in memory.
    spillDir: runDir,
    // Cases planned as table rows get their prompts back from the journaled template and the
    // table as they are reported, as `report` makes them: the table read once more, each
    // piece checked against its hash from when the suite was loaded.
    messages: journalMessages(request.cwd, hooks.onPromptsMissing ?? (() => {}), (record, t) => {
      const suite = plan.suites.find((s) => s.suite === record.suite);
      const now = suite?.tables?.[t];
      const then = record.tables?.[t];
      if (!now || !then || now.file !== then.file || now.digest !== then.digest) return undefined;
      return suite!.source?.tablePieces[t];
    }),
    ...(hooks.now ? { now: hooks.now } : {}),
    ...(tonight ? { annotate: tonight.annotator.annotate } : {}),
  });
  const keepReports = scope.undoOnFailure(() => fold.abort());
  const journalFile = join(runDir, 'results.jsonl');
  const modelStops = new ModelStops();
  const previous = run.resumeDir
    ? await replay(journalFile, fold, plan.costCap ? checked.prices : null, modelStops)
    : nothingYet();
  const journal = scope.hold(openJournal(journalFile), (opened) => opened.close());
  if (!previous.run) {
    const record = runRecord(meta, hooks.version);
    journal.appendRecord(record);
    fold.add(record);
  }
  const spentBefore = (plan.costCap?.spentBefore ?? 0) + previous.spent;
  return {
    clients,
    journal,
    fold,
    keepReports,
    tonight,
    previous,
    modelStops,
    meter: plan.costCap ? createCostMeter(plan.costCap.cap, spentBefore, checked.prices) : null,
    bail: meta.bail ? new Bail(meta.bail) : null,
    spentBefore,
  };
}

/** What the caller is told before anything is sent (a resumed capped run estimated over what is left). */
export async function planInfo({ plan, run }: RunJob, checked: Checked, opened: Opened): Promise<PlanInfo> {
  const { selection } = checked;
  const { done } = opened.previous;
  const planned = selection.reduce((n, s) => n + s.samples, 0);
  const capped = plan.costCap;
  const estimated =
    capped && run.resumeDir ? await checked.estimate((group) => samplesLeft(group, done)) : checked.estimated;
  const { restarted } = opened.previous;
  return {
    runDir: checked.runDir,
    planned,
    alreadyDone: Math.min(done.size, planned),
    ...(restarted ? { restarted } : {}),
    cases: selection.reduce((n, s) => n + s.cases, 0),
    suites: selection.length,
    ...(capped && estimated
      ? { cost: { cap: capped.cap, estimate: estimated, spent: opened.spentBefore } }
      : {}),
  };
}

type Tonight = Awaited<ReturnType<typeof openHistory>>;

/** Reads the history (lines it cannot read are passed over and said) and prepares tonight's annotations. */
async function openHistory(dir: string, run: Pick<RunMeta, 'id' | 'started_at'>, spillDir: string) {
  const { historyAnnotator, HistoryNights } = await import('../history/index.js');
  const history = await HistoryNights.read(dir);
  return {
    annotator: historyAnnotator(history, { id: run.id, started_at: run.started_at }, spillDir),
    problems: history.problems.map((p) => `${p.file}:${p.line}: ${p.reason}`),
  };
}

/** What a resumed run's journal holds, as replay found it. */
interface Replayed {
  /** Samples not to send again. */
  done: Set<string>;
  /** The samples of adaptive cases (their sequential test continues). */
  adaptive: SampleResult[];
  /** Lines that could not be read. */
  skipped: number;
  /** Whether it holds the run record. */
  run: boolean;
  /** Suites whose plan record it holds. */
  planned: Set<string>;
  /**
   * What its samples cost, judges included, and the steps of its conversations stopped
   * part-way (paid for, never judged), at the cap's prices.
   */
  spent: number;
  /** Conversations the last session stopped part-way: sent again now, from their first step. */
  restarted: Restarted | null;
}

/** Conversations a resumed run sends again from their first step, and the steps already paid of them. */
export interface Restarted {
  /** Their samples' keys (`suite/case#repeat`), in the order the journal holds them. */
  keys: string[];
  steps: number;
  /** What those steps cost (at the cap's prices, with one); null when no cost is known. */
  cost: number | null;
}

/** A new run's journal: nothing in it yet. */
function nothingYet(): Replayed {
  return {
    done: new Set(),
    adaptive: [],
    skipped: 0,
    run: false,
    planned: new Set(),
    spent: 0,
    restarted: null,
  };
}

/**
 * Feeds a resumed run's journal to the fold, and returns what not to send again: every
 * sample already journaled, except those an auth stop cut short (the key was the problem,
 * not the case), and the samples of adaptive cases (their sequential test continues); the
 * conversations stopped part-way, which are sent again from their first step (never judged
 * by half); and, given the prices a cost cap counts with, what the run spent: the journaled
 * samples, judges included, and every step of a conversation stopped part-way.
 */
async function replay(
  file: string,
  fold: RunFold,
  prices: Prices | null,
  modelStops: ModelStops,
): Promise<Replayed> {
  const done = new Set<string>();
  const adaptive: SampleResult[] = [];
  const stats = { skipped: [] as number[] };
  let run = false;
  const planned = new Set<string>();
  let spent = 0;
  const steps = new ConversationSteps();
  for await (const record of readJournal(file, stats)) {
    // The earlier session's end no longer holds: this one appends its own.
    if (record.type === 'end') continue;
    if (record.type === 'run') run = true;
    if (record.type === 'plan') planned.add(record.suite);
    if (record.type === 'model_stop') modelStops.add(modelStopOf(record));
    fold.add(record);
    steps.add(record);
    if (record.type !== undefined) continue;
    if (prices) spent += sampleSpent(record, prices);
    if (!(record.error && isRunStop(record.error))) done.add(record.key);
    if (record.sampling === 'auto') adaptive.push(record);
  }
  // Each step is counted as the live meter counted it (with a cap), else as its line says.
  const cost = (step: StepLine) => (prices ? stepSpent(step, prices) : (step.usage?.cost ?? null));
  if (prices) spent += addUpSteps(steps.stopped(), cost)?.cost ?? 0;
  const unfinished = steps.unfinished();
  const paid = addUpSteps(unfinished, cost);
  const restarted = paid && { keys: unfinished.map((c) => c.key), steps: paid.steps, cost: paid.cost };
  return { done, adaptive, skipped: stats.skipped.length, run, planned, spent, restarted };
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

/** Samples of a case a resumed run may still send (`repeat: auto`: up to its most). */
function samplesLeft(group: PlannedCaseGroup, done: ReadonlySet<string>): number {
  const most = group.adaptive ? ADAPTIVE_SAMPLING.cap : group.repeats;
  let left = 0;
  for (let repeat = 0; repeat < most; repeat++)
    if (!done.has(caseKey(group.suite.suite, group.case.id, repeat))) left++;
  return left;
}
