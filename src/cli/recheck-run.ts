import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type BaselineReader, baselineReader } from '../stored/baseline/cache.js';
import { usesBaseline } from '../checks/run.js';
import { FileError, UsageError } from '../util/errors.js';
import { Resources } from '../util/resources.js';
import { RunFold } from '../fold/fold.js';
import { readJournal } from '../stored/journal/read.js';
import {
  type EndRecord,
  JOURNAL_VERSION,
  type PlanOptions,
  type PlanRecord,
  type RecheckSelection,
  type RunRecord,
} from '../stored/journal/records.js';
import { openJournal } from '../stored/journal/write.js';
import { updateLatest } from '../report/json.js';
import type { Reporter } from '../fold/reporter.js';
import { newRunId } from '../run/meta.js';
import {
  emptySelectionOf,
  heldCases,
  type PlannedCaseGroup,
  plannedRequest,
  planStream,
  selectionOf,
  type SuiteSelection,
} from '../run/plan.js';
import { planLine } from '../run/plan-records.js';
import { caseMessages } from '../run/plan-messages.js';
import type { CasesOf } from '../suite/load.js';
import type { Suite } from '../suite/types.js';
import type { RecheckInfo, ReportHead } from '../stored/report/types.js';
import type { SampleResult } from '../stored/journal/records.js';
import { caseKey, type StoredRun, StoredMatch } from '../run/recheck/match.js';
import { recheckSample } from '../run/recheck/sample.js';
import { TodaysCases } from '../run/recheck/todays-cases.js';

export interface RecheckOptions {
  /** The stored run's folder (its journal is read, never written). */
  sourceDir: string;
  /**
   * Its journal's first read (readStored): the caller needs its head to load today's suites.
   * Taken over: its plans and answered cases are let go as today's are matched with them.
   */
  stored: StoredJournal;
  /** Today's suites, loaded by the caller from `selection.paths` (or the paths given): with their cases, or without (`casesOf`). */
  suites: Suite[];
  /** A suite's cases one at a time (default: those it holds): a suite loaded without them is read again. */
  casesOf?: CasesOf;
  /** How today's suites are planned: the stored run's selection (storedSelection). */
  selection: RecheckSelection;
  reportDir: string;
  baselineDir: string;
  /** Where paths in reports are shown from. */
  cwd: string;
  /** The recheck's reporters, writing into its new run folder. */
  reporters: (runDir: string) => Promise<Reporter[]>;
  command: string[];
  version: string;
  now?: () => Date;
}

export interface RecheckResult {
  head: ReportHead;
  runDir: string;
  files: string[];
  source: RunRecord;
  plan: Pick<RecheckInfo, 'not_answered' | 'dropped'>;
  /** Stored samples checked again. */
  samples: number;
  /** Judge checks kept from the run, and those that need a call (not evaluated). */
  judges: { kept: number; needsCall: number };
  /** Lines of the stored journal that were not records (damaged or foreign), passed over. */
  skipped: number[];
}

/**
 * `driftcheck recheck`: today's suites' checks and drift rules applied to the answers a run
 * stored in its journal, sending nothing. Plan (today's suites, selected as the run was) and
 * match (by suite and case id), a case at a time → a new journal in a new run folder, marked
 * as a recheck of the run, each stored sample checked again as it is read and folded as a
 * run folds its samples, by the same fold and reporters as `driftcheck report`. Today's
 * cases are read as they are planned and again as the samples come (TodaysCases), never
 * held whole: what is held per case is its match with the run (StoredMatch).
 */
export async function recheckRun(options: RecheckOptions): Promise<RecheckResult> {
  const sourceJournal = join(options.sourceDir, 'results.jsonl');
  const { stored } = options;
  const plan = options.selection.plan;
  const casesOf = options.casesOf ?? heldCases;
  const selection = await selectionOf(options.suites, plan, casesOf);
  const nothing = selection.length === 0 ? await emptySelectionOf(options.suites, plan, casesOf) : null;
  if (nothing) throw new UsageError(nothing);
  const baselines = baselineReader(options.baselineDir, options.cwd);
  const baselineContent = (suite: string, caseId: string) =>
    baselines.heldCase(suite, caseId)?.content ?? null;

  const now = options.now ?? (() => new Date());
  const startedAt = now().toISOString();
  const id = newRunId(new Date(startedAt));
  const runDir = join(options.reportDir, id);
  return Resources.using(async (scope) => {
    await mkdir(runDir, { recursive: true });
    // Nothing journaled yet (a table changed while it was matched): no run folder is left.
    const keepRunDir = scope.undoOnFailure(() => rm(runDir, { recursive: true, force: true }));
    const fold = new RunFold({
      baseline: baselines.read,
      reporters: options.reporters(runDir),
      renderedBy: 'recheck',
      // As a run's: a large suite's entries wait in the recheck's own folder, not the system's temp.
      spillDir: runDir,
      // Today's suites: the cases planned as table rows get their prompts from them.
      messages: (record) => {
        const suite = options.suites.find((s) => s.suite === record.suite);
        return suite ? caseMessages(casesOf(suite)) : null;
      },
    });
    // The reporters' partial files are removed when the recheck fails before its report is made.
    const keepReports = scope.undoOnFailure(() => fold.abort());
    const match = new StoredMatch(stored.run);
    const counts = { samples: 0, kept: 0, needsCall: 0 };
    const todays = () => todaysPlan(selection, plan, casesOf);
    const cases = scope.hold(
      new TodaysCases(todays, match.rechecked, (g) => caseKey(g.suite.suite, g.case.id)),
      (c) => c.close(),
    );

    // Today's plan records, matched a case at a time: journaled once every case is matched
    // (the run record before them lists those not answered), handed to the fold as made.
    const planLines: Buffer[][] = [];
    for (const s of selection) {
      const groups = holdingBaselines(planStream([s.suite], plan, casesOf, s.start), baselines);
      const line = await planLine(groups, baselineContent, (part) => fold.addPlanPart(part, s.cases), {
        sent: false,
        each: (group, made, record) => match.add(record, made, group.case.messages),
      });
      if (line) planLines.push(line);
    }
    const matched = { not_answered: match.not_answered, dropped: match.dropped() };
    const journal = scope.hold(openJournal(join(runDir, 'results.jsonl')), (j) => j.close());
    keepRunDir();
    const record = recheckRecord(options, stored.record, matched, id, startedAt);
    journal.appendRecord(record);
    fold.add(record);
    for (const line of planLines.splice(0)) journal.appendLineParts(line);
    fold.plansComplete();
    for await (const sample of readJournal(sourceJournal)) {
      if (sample.type !== undefined) continue;
      const key = caseKey(sample.suite, sample.case);
      const matchedCase = match.rechecked.get(key);
      if (!matchedCase) continue;
      const group = await cases.take(key, matchedCase);
      const rechecked = recheckSample(
        sample,
        group.case.expect,
        {
          runId: stored.record.id,
          asked: matchedCase.asked,
          baselineContent: baselineContent(sample.suite, sample.case),
          sameBaseline: matchedCase.sameBaseline,
        },
        {
          request: plannedRequest(group),
          baseline: baselines.heldCase(sample.suite, sample.case),
          ...(group.case.turns ? { turns: group.case.turns.map((t) => t.expect) } : {}),
        },
      );
      count(counts, sample, rechecked);
      journal.appendLine(JSON.stringify(rechecked));
      fold.add(rechecked);
    }
    await cases.close();
    const end: EndRecord = { type: 'end', finished_at: now().toISOString(), status: 'completed', stop: null };
    journal.appendRecord(end);
    fold.add(end);
    journal.close();
    const folded = await fold.finish();
    keepReports();
    await updateLatest(options.reportDir, id);
    return {
      head: folded.head,
      runDir,
      files: folded.files,
      source: stored.record,
      plan: matched,
      samples: counts.samples,
      judges: { kept: counts.kept, needsCall: counts.needsCall },
      skipped: stored.skipped,
    };
  });
}

/** Today's plan, suite by suite as selected, from its start. */
async function* todaysPlan(
  selection: readonly SuiteSelection[],
  plan: PlanOptions,
  casesOf: CasesOf,
): AsyncGenerator<PlannedCaseGroup> {
  for (const s of selection) yield* planStream([s.suite], plan, casesOf, s.start);
}

/**
 * Planned cases as they come, the baseline of a case's suite held before the case when a
 * check of it reads the baseline (an equivalence judge): its plan records a digest of the
 * baseline answer, and its samples are checked against it.
 */
async function* holdingBaselines(
  groups: AsyncIterable<PlannedCaseGroup>,
  baselines: BaselineReader,
): AsyncGenerator<PlannedCaseGroup> {
  for await (const group of groups) {
    const suite = group.suite.suite;
    if (!baselines.isHeld(suite) && group.case.expect.some(usesBaseline)) await baselines.hold([suite]);
    yield group;
  }
}

/** A stored run's journal as its first read found it. */
export interface StoredJournal {
  record: RunRecord;
  run: StoredRun;
  /** Lines that were not records (damaged or foreign), passed over. */
  skipped: number[];
}

/**
 * The stored run's head and which of its cases have answers, with how many samples each: the
 * journal's first read (the second streams its samples through today's checks, each case's
 * held until its last sample has come). Refuses a journal of driftcheck 0.1
 * (no plan to match today's suites with) and one with no run record.
 */
export async function readStored(file: string): Promise<StoredJournal> {
  let record: RunRecord | null = null;
  const plans = new Map<string, PlanRecord>();
  const answered = new Map<string, number>();
  /** Samples of cases not answered yet (not run): added to a case's count when one is answered. */
  const notRun = new Map<string, number>();
  let ended = false;
  let first = true;
  const stats = { skipped: [] as number[] };
  for await (const r of readJournal(file, stats)) {
    // 0.1's journal holds sample lines only: its first record is a sample.
    if (first && r.type === undefined)
      throw new FileError(
        file,
        "a journal of driftcheck 0.1, which records no plan to match today's suites with\n  → run the suites again (`driftcheck run`)",
      );
    first = false;
    if (r.type === 'run') record ??= r;
    else if (r.type === 'plan') plans.set(r.suite, mergePlan(plans.get(r.suite), r));
    else if (r.type === 'end') ended = r.stop === null;
    // A model the run stopped: its cases have no answer, which is what the recheck reads.
    else if (r.type === 'model_stop') continue;
    // A step of a conversation: the run went on after an end, and the answers are its sample's.
    else if (r.type === 'step') ended = false;
    else {
      ended = false;
      const key = caseKey(r.suite, r.case);
      const samples = answered.get(key);
      if (samples !== undefined) answered.set(key, samples + 1);
      else if (r.status === 'not_run') notRun.set(key, (notRun.get(key) ?? 0) + 1);
      else {
        answered.set(key, (notRun.get(key) ?? 0) + 1);
        notRun.delete(key);
      }
    }
  }
  if (!record)
    throw new FileError(
      file,
      'no run record: not a journal a driftcheck run wrote\n  → pass a run folder under reports/ (one with run.json beside results.jsonl)',
    );
  return { record, run: { id: record.id, plans, answered, stopped: !ended }, skipped: stats.skipped };
}

/** Several plan records of one suite (a merged folder's shards) make one. */
function mergePlan(known: PlanRecord | undefined, plan: PlanRecord): PlanRecord {
  return known ? { ...known, cases: [...known.cases, ...plan.cases] } : plan;
}

/** The recheck's run record: the stored run's facts (what answered), marked as a recheck of it. */
function recheckRecord(
  options: RecheckOptions,
  source: RunRecord,
  matched: Pick<RecheckInfo, 'not_answered' | 'dropped'>,
  id: string,
  startedAt: string,
): RunRecord {
  return {
    type: 'run',
    journal_version: JOURNAL_VERSION,
    id,
    started_at: startedAt,
    command: options.command,
    driftcheck_version: options.version,
    sim: source.sim,
    candidate_model: source.candidate_model,
    candidate_provider: source.candidate_provider ?? null,
    skipped_suites: source.skipped_suites ?? [],
    shard: source.shard,
    complete: source.complete,
    recheck: {
      of: source.id,
      not_answered: matched.not_answered,
      dropped: matched.dropped,
      selection: options.selection,
    },
  };
}

/** Counts a rechecked sample and its judges: kept from the run, or needing a call. */
function count(
  counts: { samples: number; kept: number; needsCall: number },
  stored: SampleResult,
  sample: SampleResult,
): void {
  counts.samples++;
  for (const check of sample.checks) {
    if (check.judge?.verdict === 'needs_call') counts.needsCall++;
    else if (check.judge && stored.checks.includes(check)) counts.kept++;
  }
}
