import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { baselineReader } from '../stored/baseline/cache.js';
import { usesBaseline } from '../checks/run.js';
import { FileError, UsageError } from '../util/errors.js';
import { foldRunDirs } from '../fold/run-dirs.js';
import { readJournal } from '../stored/journal/read.js';
import {
  JOURNAL_VERSION,
  journalPlan,
  type PlanRecord,
  type RecheckSelection,
  type RunRecord,
} from '../stored/journal/records.js';
import { openJournal } from '../stored/journal/write.js';
import { updateLatest } from '../report/json.js';
import type { Reporter } from '../fold/reporter.js';
import { newRunId } from '../run/meta.js';
import { emptySelection, planCases } from '../run/plan.js';
import { caseMessages } from '../run/plan-messages.js';
import type { Suite } from '../suite/types.js';
import type { ReportHead } from '../stored/report/types.js';
import type { SampleResult } from '../stored/journal/records.js';
import { caseKey, matchStored, type RecheckPlan, type StoredRun } from '../run/recheck/match.js';
import { recheckSample } from '../run/recheck/sample.js';

export interface RecheckOptions {
  /** The stored run's folder (its journal is read, never written). */
  sourceDir: string;
  /** Its journal's first read (readStored): the caller needs its head to load today's suites. */
  stored: StoredJournal;
  /** Today's suites, loaded by the caller from `selection.paths` (or the paths given). */
  suites: Suite[];
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
  plan: Pick<RecheckPlan, 'not_answered' | 'dropped'>;
  /** Stored samples checked again. */
  samples: number;
  /** Judge checks kept from the run, and those that need a call (not evaluated). */
  judges: { kept: number; needsCall: number };
  /** Lines of the stored journal that were not records (damaged or foreign), passed over. */
  skipped: number[];
}

/**
 * `driftcheck recheck`: today's suites' checks and drift rules applied to the answers a run
 * stored in its journal, sending nothing. Plan (today's suites, selected as the run was) →
 * match (by suite and case id) → a new journal in a new run folder, marked as a recheck of
 * the run → the same fold and reporters as `driftcheck report`.
 */
export async function recheckRun(options: RecheckOptions): Promise<RecheckResult> {
  const sourceJournal = join(options.sourceDir, 'results.jsonl');
  const { stored } = options;
  const today = planCases(options.suites, options.selection.plan);
  const nothing = today.length === 0 ? emptySelection(options.suites, options.selection.plan) : null;
  if (nothing) throw new UsageError(nothing);
  const baselines = baselineReader(options.baselineDir, options.cwd);
  // Equivalence judges need today's baseline answer of each case; the fold reads the rest one suite at a time.
  // Checks that read the case's baseline (usesBaseline) see today's, as a run would show them.
  await baselines.hold([
    ...new Set(today.filter((c) => c.case.expect.some(usesBaseline)).map((c) => c.suite.suite)),
  ]);
  const baselineContent = (suite: string, caseId: string) =>
    baselines.heldCase(suite, caseId)?.content ?? null;
  const matched = matchStored(today, stored.run, baselineContent);

  const now = options.now ?? (() => new Date());
  const startedAt = now().toISOString();
  const id = newRunId(new Date(startedAt));
  const runDir = join(options.reportDir, id);
  await mkdir(runDir, { recursive: true });
  const journal = openJournal(join(runDir, 'results.jsonl'));
  const counts = { samples: 0, kept: 0, needsCall: 0 };
  try {
    journal.appendRecord(recheckRecord(options, stored.record, matched, id, startedAt));
    for (const plan of matched.plans) journal.appendRecord(journalPlan(plan));
    for await (const record of readJournal(sourceJournal)) {
      if (record.type !== undefined) continue;
      const key = caseKey(record.suite, record.case);
      const todays = matched.rechecked.get(key);
      if (!todays) continue;
      const sample = recheckSample(
        record,
        todays.expect,
        {
          runId: stored.record.id,
          asked: todays.asked.judges ?? null,
          baselineContent: baselineContent(record.suite, record.case),
          sameBaseline: todays.sameBaseline,
        },
        {
          request: todays.request,
          baseline: baselines.heldCase(record.suite, record.case),
          ...(todays.turns ? { turns: todays.turns } : {}),
        },
      );
      count(counts, record, sample);
      journal.appendLine(JSON.stringify(sample));
    }
    journal.appendRecord({ type: 'end', finished_at: now().toISOString(), status: 'completed', stop: null });
  } finally {
    journal.close();
  }
  const folded = await foldRunDirs([runDir], {
    baseline: baselines.read,
    reporters: await options.reporters(runDir),
    renderedBy: 'recheck',
    // Today's suites: the cases planned as table rows get their prompts from them.
    messages: (plan) => {
      const suite = options.suites.find((s) => s.suite === plan.suite);
      return suite ? caseMessages(suite.cases) : null;
    },
  });
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
}

/** A stored run's journal as its first read found it. */
export interface StoredJournal {
  record: RunRecord;
  run: StoredRun;
  /** Lines that were not records (damaged or foreign), passed over. */
  skipped: number[];
}

/**
 * The stored run's head and which of its cases have answers: the journal's first read (the
 * second streams its samples through today's checks). Refuses a journal of driftcheck 0.1
 * (no plan to match today's suites with) and one with no run record.
 */
export async function readStored(file: string): Promise<StoredJournal> {
  let record: RunRecord | null = null;
  const plans = new Map<string, PlanRecord>();
  const answered = new Set<string>();
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
      if (r.status !== 'not_run') answered.add(caseKey(r.suite, r.case));
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
  matched: RecheckPlan,
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
