import { join } from 'node:path';
import { baselineReader, type BaselineReader } from '../stored/baseline/cache.js';
import { readBaseline } from '../stored/baseline/store.js';
import { SuiteBaseline } from '../stored/baseline/suite-baseline.js';
import type { Baseline } from '../stored/baseline/types.js';
import { readJournalPlans } from '../stored/journal/read.js';
import { judgeTargets } from '../suite/judge-targets.js';
import { unconfiguredServices } from '../config/services.js';
import { InputError, UsageError } from '../util/errors.js';
import type { Config } from '../config/types.js';
import type { Prices } from '../core/catalog.js';
import type { Suite } from '../suite/types.js';
import { type CostEstimate, overCapMessage } from '../run/cost-estimate.js';
import { capPrices, estimateRun } from '../run/estimate-run.js';
import { newRunId, type RunMeta } from '../run/meta.js';
import {
  emptySelectionOf,
  type PlannedCaseGroup,
  planStream,
  selectionOf,
  type SuiteSelection,
} from '../run/plan.js';
import { changedTables } from '../run/plan-records.js';
import type { RunJob } from './run-once.js';

/** A run checked before anything is written: what it will send, to which services, at what cost. */
export interface Checked {
  meta: RunMeta;
  runDir: string;
  /** What the plan selects of each suite, in plan order. */
  selection: SuiteSelection[];
  /** The services the plan calls, suites' and judges', every one configured. */
  services: string[];
  /** A capped run's planned cases, every one read before anything is sent (its estimate reads them); else null. */
  cases: PlannedCaseGroup[] | null;
  baselines: BaselineReader;
  /** What a capped run counts its answers at; empty without a cap. */
  prices: Prices;
  /** A capped run's estimate of what is left to send (`samplesLeft`: a resumed run's). */
  estimate(samplesLeft?: (group: PlannedCaseGroup) => number): Promise<CostEstimate>;
  /** A new capped run's estimate, made and held against the cap here; null otherwise. */
  estimated: CostEstimate | null;
}

/**
 * What is refused before anything is sent or written (exit 2): a selection of nothing, a
 * service the config lacks, a resumed run whose tables changed, a corrupt baseline, an
 * estimate over the cap.
 */
export async function preflight({ request, plan, run, hooks }: RunJob): Promise<Checked> {
  const now = hooks.now ?? (() => new Date());
  const startedAt = run.meta.started_at ?? now().toISOString();
  const id = run.meta.id ?? newRunId(new Date(startedAt));
  const meta: RunMeta = { ...run.meta, id, started_at: startedAt };
  const runDir = run.resumeDir ?? join(plan.reportDir, id);
  const { config } = plan.services;
  // What the plan selects of each suite, counted before anything is read twice or sent.
  const selection = run.selection ?? (await selectionOf(plan.suites, meta.plan, plan.casesOf));
  // A run that would check nothing is not a pass: say what selected nothing (exit 2). An
  // empty shard of a small suite is not that: it runs, empty, so that the merge finds it.
  if (selection.length === 0) {
    const nothing = await emptySelectionOf(plan.suites, meta.plan, plan.casesOf);
    if (nothing) throw new UsageError(nothing);
  }
  const suites = selection.map((s) => s.suite);
  const services = checkServices(suites, config, meta.plan.service);
  if (run.resumeDir) {
    // Refused before anything is sent or locked: the journal keeps what it holds.
    const changed = changedTables((await readJournalPlans(join(runDir, 'results.jsonl'))).plans, suites);
    if (changed.length > 0) throw new InputError(changed);
  }
  const capped = plan.costCap;
  // A capped run is estimated over every planned case before anything is sent: it holds the
  // plan (a run without a cap reads each suite's cases when it reaches the suite).
  const cases = capped ? await collect(planStream(suites, meta.plan, plan.casesOf)) : null;
  // Read before the first request, one at a time: a corrupt baseline is an input error that
  // costs nothing. A capped run keeps what it read for its estimate (else each is let go).
  const read = new Map<string, Baseline | null>();
  for (const s of suites) {
    if (capped) read.set(s.suite, await readBaseline(request.baselineDir, s.suite));
    else await SuiteBaseline.check(request.baselineDir, s.suite);
  }
  const prices = capped ? capPrices(config, capped.listPrices) : {};
  const estimate = (samplesLeft?: (group: PlannedCaseGroup) => number) =>
    estimateRun({
      cases: cases ?? [],
      config,
      baseline: async (suite) => read.get(suite) ?? null,
      prices,
      ...(samplesLeft ? { samplesLeft } : {}),
    });
  // A new run over the user's cap is refused before anything is sent or written. A resumed
  // run was estimated when it started: the cap alone holds it now, its spent cost counting.
  const estimated = capped && !run.resumeDir ? await estimate() : null;
  if (capped && estimated && !capped.ignoreEstimate) {
    const over = overCapMessage(estimated, capped.cap, { spentBefore: capped.spentBefore ?? 0 });
    if (over) throw new UsageError(over);
  }
  // Suites whose cases need their baseline while they run hold it (run-send.ts); the fold
  // reads the others when it reaches them.
  const baselines = baselineReader(request.baselineDir, request.cwd);
  return { meta, runDir, selection, services, cases, baselines, prices, estimate, estimated };
}

/** Every service the plan will call (suites' and judges'), all configured — or an input error. */
function checkServices(suites: readonly Suite[], config: Config, override?: string): string[] {
  const diagnostics = unconfiguredServices([...suites], config, override);
  if (diagnostics.length) throw new InputError(diagnostics);
  const judges = suites.flatMap((suite) => judgeTargets(suite).map((t) => t.service));
  return [...new Set([...suites.map((s) => override ?? s.service), ...judges])];
}

export async function collect<T>(items: AsyncIterable<T> | Iterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
