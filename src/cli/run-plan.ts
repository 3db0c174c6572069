import { dirname, relative } from 'node:path';
import { UsageError } from '../util/errors.js';
import type { RunMeta } from '../run/meta.js';
import type { CandidateEntry, CandidatesFile } from '../run/candidates-file.js';
import type { CostCap } from '../run/cost-cap.js';
import { selectionOf, selectionsOf, type SuiteSelection } from '../run/plan.js';
import type { CasesOf } from '../suite/load.js';
import type { Suite } from '../suite/types.js';
import type { Config } from '../config/types.js';
import type { Prices } from '../core/catalog.js';
import type { RunStatus } from '../core/stops.js';
import type { CatalogReader, ProviderLists } from '../service/check-models.js';
import type { ComparedSide } from '../compare/side.js';
import { type PlannedCandidate, planCandidates, skippedLines } from './candidates.js';
import { checkCandidatesEstimate, costCapFor, listPrices } from './cost-cap.js';
import { type FailedCases, failedLine, inheritedPlan } from './failed.js';
import type { RunRequest } from './run-request.js';

/** What run.json keeps of a run before it starts (its id and start are taken when it does, unless planned). */
export type NewRunMeta = Omit<RunMeta, 'id' | 'started_at'> & Partial<Pick<RunMeta, 'id' | 'started_at'>>;

/** The services a run calls, as it calls them, and their model lists (read at most once each). */
export interface RunServices {
  /** The config, its services pointed at the embedded simulator under `--sim`. */
  config: Config;
  /** Where keys are read from (the simulator's own under `--sim`). */
  env: NodeJS.ProcessEnv;
  catalogs: CatalogReader;
  providerLists: ProviderLists;
}

/**
 * A run's cost cap (`--max-cost`, `max_cost`). A new run is estimated before anything is
 * sent and refused (exit 2) over the cap, unless `ignoreEstimate`; as it runs, every
 * answer's cost (judges' included) counts, and reaching the cap pauses it (exit 3).
 */
export interface RunCostCap {
  cap: CostCap;
  ignoreEstimate?: boolean;
  /** USD per 1M tokens read from the services' model lists; the config's `prices:` win. */
  listPrices?: Prices;
  /** What earlier runs of the same command spent (`--models`): it counts toward the cap. */
  spentBefore?: number;
}

/** One run of the command, as planned. */
export interface PlannedRun {
  /** What run.json keeps: a new run's, or a resumed run's as it was written. */
  meta: NewRunMeta;
  /** The run folder a resumed run continues. */
  resumeDir?: string;
  /** What its plan selects, counted while planning; null: counted when it runs. */
  selection: SuiteSelection[] | null;
}

/** `--models`/`--providers`: one run per candidate, compared side by side. */
export interface PlannedComparison {
  /** The comparison folder, and its candidates.json. */
  dir: string;
  file: CandidatesFile;
  /** A new comparison: candidates.json is written before its first run is sent. */
  isNew: boolean;
  /** `--reference`: the stored run the candidates are compared with, instead of the current baselines. */
  reference: ComparedSide | null;
  /** Each candidate in order: its run (null: it completed earlier, compared as it is) and how many cases it selects. */
  candidates: { entry: CandidateEntry; run: PlannedRun | null; cases: number }[];
}

/** What every run of the command shares. */
export interface RunPlanBase {
  services: RunServices;
  /** The config as written: a stop line names the user's key variable and base_url, not the simulator's. */
  configured: Config;
  suites: Suite[];
  /** A suite's cases: a suite loaded without them is read again when the run reaches it. */
  casesOf: CasesOf;
  /** Where run folders go (a resumed comparison's: beside it). */
  reportDir: string;
  /** The history folder tonight is read from and appended to (`--history`, the config's), or null. */
  historyDir: string | null;
  /** The cost cap, held over every run of the command (`--models`: what each spends counts for the next). */
  costCap: RunCostCap | null;
}

/** What one `run` command will do, decided before anything is sent: one run, or a comparison. */
export type RunPlan = RunPlanBase &
  ({ run: PlannedRun; comparison?: undefined } | { comparison: PlannedComparison; run?: undefined });

/** What the plan reads, and where it says what it finds. The CLI's read files and services (run-readers.ts). */
export interface PlanReaders {
  /** The run or comparison folder `--resume` continues (resume.ts). */
  resumeTarget(paths: readonly string[], reportDir: string): Promise<string>;
  /** The comparison a resumed folder is, or whose candidate it is (candidates.json); null for a run of its own. */
  comparison(target: string): Promise<{ dir: string; file: CandidatesFile } | null>;
  runMeta(runDir: string): Promise<RunMeta>;
  /** A run folder's status as its report.json says it (null: none yet). */
  runStatus(runDir: string): Promise<RunStatus | null>;
  /** Whether a run folder was started (it holds run.json). */
  started(runDir: string): boolean;
  /** `--failed RUN_DIR`: the cases that failed, errored or regressed there. */
  failedCases(dir: string, shown: string): Promise<FailedCases>;
  config(file: string | undefined): Promise<Config>;
  /** The suites (every case checked), held whole or read again as a run reaches them. */
  suites(
    paths: readonly string[],
    options: { allowAlias: boolean; holdAll: boolean; config: Config; sim: boolean },
  ): Promise<{ suites: Suite[]; casesOf: CasesOf }>;
  hasBaseline(suite: string): boolean;
  /** The services the runs call: under `--sim` the embedded simulator, started here. */
  services(config: Config, sim: boolean): Promise<RunServices>;
  /** A stored run `--reference` names, read for the comparison. */
  referenceRun(dir: string): Promise<ComparedSide>;
  now(): Date;
  /** Says a line on stderr as the plan comes to it (a missing baseline, what `--failed` runs again). */
  tell(line: string): void;
}

/** Where the plan starts from: a new run's meta, or a resumed run's (or comparison's) as written. */
export interface PlanStart {
  meta: NewRunMeta;
  reportDir: string;
  resumeDir?: string;
  comparison: { dir: string; file: CandidatesFile } | null;
  failed: FailedCases | null;
}

/**
 * What the command will send, decided before anything is: the suites, each run's selection,
 * the candidates and the suites they skip, the cost estimate, the baselines missing. Reads
 * only through `readers`; refuses (exit 2) what cannot run.
 */
export async function planRun(request: RunRequest, readers: PlanReaders): Promise<RunPlan> {
  const start = request.resume ? await resumed(request, readers) : await fresh(request, readers);
  const { meta, comparison, failed } = start;
  const config = await readers.config(meta.config_file ?? undefined);
  const cap = costCapFor(request.maxCost, meta, config);
  // Kept in run.json: a resume holds the same cap unless given a new --max-cost.
  if (!request.resume) meta.max_cost = cap;
  // Every case is checked now; a small run holds them, a large one reads each suite again when
  // it reaches it. A cap is estimated over every case before anything is sent: it holds them all.
  const { suites, casesOf } = await readers.suites(meta.paths, {
    allowAlias: meta.allow_alias,
    holdAll: cap !== null,
    config,
    sim: meta.sim,
  });
  const { candidates } = request;
  // What the plan selects, counted once (a filter or a shard reads a large suite for it): the
  // warnings below and the run read the same count.
  const selection = candidates ? null : await selectionOf(suites, meta.plan, casesOf);
  if (selection) baselinesMissing(request, readers, meta, [selection]);
  if (failed) {
    readers.tell(failedLine(failed, request.failed!.shown));
    const selected = selection?.reduce((n, s) => n + s.cases, 0);
    if (selected !== undefined && selected > 0 && selected < failed.cases.length)
      readers.tell(
        `driftcheck: --failed: ${failed.cases.length - selected} of them ${meta.plan.filter || meta.plan.shard ? 'are left out by --filter/--shard or ' : ''}no longer in the suites\n`,
      );
  }
  const services = await readers.services(config, meta.sim);
  // Each candidate runs the suites it belongs to, decided before anything is sent; a resumed
  // comparison runs the candidates its candidates.json planned, as planned.
  const planned = candidates
    ? await planCandidates(
        candidates,
        suites,
        meta.plan,
        services.config,
        services.catalogs,
        casesOf,
        services.providerLists,
      )
    : (comparison?.file.candidates.map(({ candidate, plan, skipped }) => ({ candidate, plan, skipped })) ??
      null);
  // Each candidate's selection counted in one pass: a large suite is read once for them all.
  const selections = planned
    ? await selectionsOf(
        suites,
        planned.map((p) => p.plan),
        casesOf,
      )
    : [];
  if (planned) baselinesMissing(request, readers, meta, selections);
  const costCap = cap
    ? await capContext(request, cap, comparison !== null, planned, meta, suites, services)
    : null;
  const base: RunPlanBase = {
    services,
    configured: config,
    suites,
    casesOf,
    reportDir: start.reportDir,
    historyDir: request.history ?? request.project.history(undefined, config),
    costCap,
  };
  if (!planned)
    return { ...base, run: { meta, ...(start.resumeDir ? { resumeDir: start.resumeDir } : {}), selection } };
  if (candidates && !candidates.compare) {
    const [one] = planned;
    readers.tell(skippedLines(`candidate ${one!.candidate.model}`, one!.skipped));
    return { ...base, run: { meta: { ...meta, plan: one!.plan }, selection: selections[0]! } };
  }
  // The comparison's modules load only for --models and --providers.
  const { planComparison } = await import('./compare-candidates.js');
  return { ...base, comparison: await planComparison(request, readers, start, planned, selections, base) };
}

/** A new run: the flags, and what a `--failed` run takes of the run it re-runs. */
async function fresh(request: RunRequest, readers: PlanReaders): Promise<PlanStart> {
  // --failed RUN_DIR: a new run of the cases that failed, errored or regressed there, of the
  // suites it was given and with the answers it asked for, unless the command line says otherwise.
  const failed = request.failed ? await readers.failedCases(request.failed.dir, request.failed.shown) : null;
  const before = failed?.meta ?? null;
  const inherited = failed ? inheritedPlan(before, request.failed!.given) : {};
  const meta: NewRunMeta = {
    command: request.command,
    paths: request.paths.length ? request.paths : before ? before.paths : [request.project.suites()],
    config_file: request.configFile ?? before?.config_file ?? null,
    allow_alias: request.allowAlias || Boolean(before?.allow_alias),
    sim: request.sim || Boolean(before?.sim),
    plan: {
      ...inherited,
      ...request.selection,
      ...(request.service ? { service: request.service } : {}),
      ...(failed ? { cases: failed.cases } : {}),
    },
    concurrency: request.concurrency,
    update_baselines: request.updateBaselines,
    ...(request.bail !== null ? { bail: request.bail } : {}),
  };
  return { meta, reportDir: request.reportDir, comparison: null, failed };
}

/**
 * `--resume`: the run as its run.json planned it; a comparison of `--models`/`--providers`
 * candidates (its folder, or one of its runs) is finished whole, in the folder's own reports/.
 */
async function resumed(request: RunRequest, readers: PlanReaders): Promise<PlanStart> {
  const target = await readers.resumeTarget(request.paths, request.reportDir);
  const comparison = await readers.comparison(target);
  const meta = comparison ? comparison.file.meta : await readers.runMeta(target);
  // A resume keeps the run's --bail; one given now holds for this session.
  if (request.bail !== null) meta.bail = request.bail;
  return comparison
    ? { meta, reportDir: dirname(comparison.dir), comparison, failed: null }
    : { meta, reportDir: request.reportDir, resumeDir: target, comparison: null, failed: null };
}

/**
 * A run without a suite's baseline checks that suite's expectations only: said, and with
 * `--require-baselines` refused before anything is sent. A candidate's run too: it is
 * compared with the current baseline, and without one nothing of it is compared.
 */
function baselinesMissing(
  request: RunRequest,
  readers: PlanReaders,
  meta: NewRunMeta,
  counted: readonly (readonly SuiteSelection[])[],
): void {
  if (meta.update_baselines) return;
  const missing = [...new Set(counted.flatMap((c) => c.map((s) => s.suite.suite)))].filter(
    (suite) => !readers.hasBaseline(suite),
  );
  if (missing.length && request.requireBaselines)
    throw new UsageError(
      `--require-baselines: no baseline for ${missing.join(', ')} in ${relative(request.cwd, request.baselineDir) || '.'}\n  → accept one first (driftcheck run --update-baselines, or driftcheck baseline accept RUN_DIR)`,
    );
  for (const suite of missing)
    readers.tell(
      `driftcheck: warning: suite ${suite} has no baseline yet: only its expectations are checked, no drift (--require-baselines makes this an error)\n`,
    );
}

/**
 * The cost cap as the runs take it: prices from the routing services' model lists, and for
 * `--models`/`--providers` every candidate's run estimated together before the first is sent
 * (each run then skips its own check, and counts what the earlier ones spent). A resumed
 * comparison is not estimated again, as a resumed run is not.
 */
async function capContext(
  request: RunRequest,
  cap: CostCap,
  resumedComparison: boolean,
  planned: readonly PlannedCandidate[] | null,
  meta: NewRunMeta,
  suites: Suite[],
  services: RunServices,
): Promise<RunCostCap> {
  const ignoreEstimate = request.ignoreEstimate || resumedComparison;
  const plans = planned ? planned.map((p) => p.plan) : [meta.plan];
  const prices = await listPrices(suites, plans, services.config, services.catalogs);
  const several = planned !== null && planned.length > 1;
  if (several && !ignoreEstimate)
    await checkCandidatesEstimate({
      cap,
      suites,
      plans,
      config: services.config,
      baselineDir: request.baselineDir,
      listPrices: prices,
    });
  return { cap, ignoreEstimate: ignoreEstimate || several, listPrices: prices, spentBefore: 0 };
}
