import type { Config } from '../config/types.js';
import { FILE_REPORTERS } from '../report/outputs.js';
import { type CatalogReader, catalogReader } from '../service/check-models.js';
import type { PlanOptions } from '../stored/journal/records.js';
import { heldCases, type SuiteSelection } from '../run/plan.js';
import type { CasesOf } from '../suite/load.js';
import type { Suite } from '../suite/types.js';
import { type RunHooks, type RunResult, runOnce } from './run-once.js';
import type { NewRunMeta, RunCostCap } from './run-plan.js';
import { gitFromEnv } from '../history/git.js';

export interface RunSuitesOptions extends RunHooks {
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
  meta: NewRunMeta;
  /** Continue this run folder: samples already in its journal are not sent again. */
  resumeDir?: string;
  /**
   * The user's cost cap (`--max-cost`, `max_cost`). A new run is estimated before anything is
   * sent and refused (UsageError, exit 2) when the estimate exceeds the cap, unless
   * `ignoreEstimate`; as it runs, every answer's cost (judges' included) counts, and reaching
   * the cap pauses it (exit 3). A resumed run counts what its journal says it spent.
   */
  costCap?: RunCostCap;
  /** Reporters by name (console, json, html, junit, markdown); report.json is always written. Default: the file reporters. */
  reporters?: ReadonlySet<string>;
  /**
   * The nightly history folder (`run --history`, `history: { dir }`): earlier nights inform
   * tonight's report (when each changed case began changing, slow drift), and tonight is
   * appended to it once the run completes — when it is a nightly, complete run of the real
   * services, or `force` says to append it anyway (its line then says it was forced). Git is
   * asked about the commit in `cwd` (`history.cwd`, the older name, when `cwd` is not given).
   */
  history?: { dir: string; cwd?: string; force?: boolean };
  /** Where the suites' file names are relative to, as loadSuites was given it (default process.cwd()). */
  cwd?: string;
}

export type RunSuitesResult = RunResult;

/**
 * The main job for a library caller: one run of these suites (plan → pre-flight → send,
 * each sample to the journal and the fold → the fold's reporters → baselines), as the CLI's
 * `run` makes each of its runs (run-once.ts), from options with their defaults.
 */
export function runSuites(options: RunSuitesOptions): Promise<RunSuitesResult> {
  const { config, env, meta } = options;
  return runOnce({
    request: {
      baselineDir: options.baselineDir,
      cwd: options.cwd ?? options.history?.cwd ?? process.cwd(),
      reporters: options.reporters ?? FILE_REPORTERS,
      historyForce: options.history?.force ?? false,
      ciGit: gitFromEnv(env),
    },
    plan: {
      services: { config, env, catalogs: options.catalogs ?? catalogReader(env) },
      suites: options.suites,
      casesOf: options.casesOf ?? heldCases,
      reportDir: options.reportDir,
      historyDir: options.history?.dir ?? null,
      costCap: options.costCap ?? null,
    },
    run: {
      meta,
      ...(options.resumeDir ? { resumeDir: options.resumeDir } : {}),
      selection: options.selection?.plan === meta.plan ? options.selection.suites : null,
    },
    hooks: options,
  });
}
