import { usesBaseline } from '../checks/run.js';
import type { CaseError } from '../core/answer.js';
import type { Resources } from '../util/resources.js';
import type { BaselineCase } from '../stored/baseline/types.js';
import { type EndRecord, modelStopRecord as journalModelStop } from '../stored/journal/records.js';
import { casesNotHeld } from '../suite/load.js';
import type { Suite } from '../suite/types.js';
import { executePlan, type ExecuteOutcome, type PlanItem } from '../run/execute.js';
import { modelStopRecord } from '../run/model-stops.js';
import {
  type PlannedCaseGroup,
  planHeldSuite,
  planSamples,
  planStream,
  type SuiteSelection,
} from '../run/plan.js';
import { planLine } from '../run/plan-records.js';
import type { Opened } from './run-open.js';
import type { RunJob } from './run-once.js';
import { type Checked, collect } from './run-preflight.js';

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

/** What sending left: how it stopped, how many samples had a key value replaced, and how many came from a response cache. */
export interface Sent {
  outcome: ExecuteOutcome;
  redacted: number;
  cached: { hit: number; zero_usage: number };
}

/**
 * Sends the plan (planBatches), each sample journaled and folded as it finishes, then the
 * model stops and the run's end. The plan is held in `scope`, so a run stopped early
 * (interrupted, paused, failed) closes the table it was reading.
 */
export async function sendPlan(
  job: RunJob,
  checked: Checked,
  opened: Opened,
  scope: Resources,
): Promise<Sent> {
  const { plan, hooks } = job;
  const { meta, baselines } = checked;
  const { fold, journal, bail, modelStops, previous } = opened;
  const now = hooks.now ?? (() => new Date());
  const planSource = planBatches(job, checked, opened);
  scope.defer(() => planSource.return(undefined));

  // Each model stop is journaled once its record is made (where the model is pinned, the
  // catalog's closest ids): before the run's end record, so every reader of the journal knows it.
  // In the order the stops were decided, whichever catalog answers first.
  let stopRecords: Promise<void> = Promise.resolve();
  const onModelStop = (stop: { service: string; model: string; error: CaseError }) => {
    const made = modelStopRecord(stop, plan.suites, meta.plan, plan.services.config, plan.services.catalogs);
    stopRecords = stopRecords.then(async () => {
      const stopped = await made;
      modelStops.add(stopped);
      const record = journalModelStop(stopped);
      journal.appendRecord(record);
      fold.add(record);
    });
  };
  let redacted = 0;
  const cached = { hit: 0, zero_usage: 0 };
  const { config } = plan.services;
  const outcome = await executePlan({
    plan: planSource,
    ...(config.prices ? { prices: config.prices } : {}),
    ...(opened.meter ? { costMeter: opened.meter } : {}),
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
    ...(hooks.interrupt ? { interrupt: hooks.interrupt } : {}),
    ...(hooks.abortInFlight ? { abortInFlight: hooks.abortInFlight } : {}),
    now,
    onResult: (result) => {
      if (result.redacted) redacted++;
      if (result.from_cache) cached[result.from_cache]++;
      fold.add(result);
      hooks.onResult?.(result);
    },
    // A conversation's steps: the report counts those of one stopped part-way as spent.
    onStep: (step) => fold.add(step),
    ...(hooks.onThrottle ? { onThrottle: hooks.onThrottle } : {}),
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
  return { outcome, redacted, cached };
}

/**
 * The plan, a suite at a time as the run reaches it, in batches (a wait per batch, not per
 * sample): its plan record journaled and folded before its first sample, then its samples
 * not yet sent. A suite held in memory is gone through without a wait between its cases.
 */
async function* planBatches(
  { plan }: RunJob,
  checked: Checked,
  { fold, journal, bail, previous }: Opened,
): AsyncGenerator<PlanItem[]> {
  const { meta, baselines } = checked;
  const { done } = previous;
  /** A case that reads its baseline while it runs: its suite's baseline is held from before its plan on. */
  const hold = (group: PlannedCaseGroup): Promise<void> | null =>
    readsBaselineWhileRunning(group) && !baselines.isHeld(group.suite.suite)
      ? baselines.hold([group.suite.suite])
      : null;
  /** A suite's planned cases read as they come (a table), its baseline held first when they read it. */
  async function* streamed(s: SuiteSelection): AsyncGenerator<PlannedCaseGroup> {
    for await (const group of planStream([s.suite], meta.plan, plan.casesOf, s.start)) {
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
  const cappedGroups = checked.cases ? bySuite(checked.cases) : null;
  const heldGroups = async (s: SuiteSelection): Promise<PlannedCaseGroup[] | null> => {
    const notHeld = casesNotHeld(s.suite);
    if (!cappedGroups && notHeld && s.suite.counts!.cases > HOLD_SUITE) return null;
    const groups = cappedGroups?.get(s.suite) ?? [
      ...planHeldSuite(
        s.suite,
        notHeld ? await collect(plan.casesOf(s.suite)) : s.suite.cases,
        meta.plan,
        s.start,
      ),
    ];
    if (groups.some(readsBaselineWhileRunning)) await baselines.hold([s.suite.suite]);
    return groups;
  };
  // What judges comparing with the baseline read: the plan records a digest of it.
  const baselineContent = (suite: string, caseId: string) =>
    baselines.heldCase(suite, caseId)?.content ?? null;
  /** Journals a suite's plan record and hands it to the fold, a part at a time (planLine). `planned`: how many cases it holds. */
  const planSuite = async (
    groups: Iterable<PlannedCaseGroup> | AsyncIterable<PlannedCaseGroup>,
    planned: number,
  ): Promise<void> => {
    const line = await planLine(groups, baselineContent, (part) => fold.addPlanPart(part, planned));
    if (line) journal.appendLineParts(line);
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
  for (const s of checked.selection) {
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
