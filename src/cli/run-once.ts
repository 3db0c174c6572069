import type { Dispatcher } from 'undici';
import { Resources } from '../util/resources.js';
import type { ServiceConfig } from '../config/types.js';
import type { CompletionRequest } from '../service/types.js';
import type { SampleResult } from '../stored/journal/records.js';
import type { ReportHead } from '../stored/report/types.js';
import type { CostCap } from '../run/cost-cap.js';
import type { CostEstimate } from '../run/cost-estimate.js';
import type { PromptsMissing } from '../run/plan-messages.js';
import type { Reporter } from '../fold/reporter.js';
import type { ReporterContext } from '../report/outputs.js';
import type { PlannedRun, RunPlanBase, RunServices } from './run-plan.js';
import type { RunSettings } from './run-request.js';
import { preflight } from './run-preflight.js';
import { openRun, planInfo, type Restarted } from './run-open.js';
import { sendPlan } from './run-send.js';
import { finishRun } from './run-finish.js';

/** What the caller is told once a run's plan is known, before anything is sent. */
export interface PlanInfo {
  runDir: string;
  planned: number;
  alreadyDone: number;
  /** A resumed run: the conversations its last session stopped part-way, sent again from their first step. */
  restarted?: Restarted;
  cases: number;
  suites: number;
  /** With a cost cap: what is left to send is estimated at, and what the run spent before. */
  cost?: { cap: CostCap; estimate: CostEstimate; spent: number };
}

/** How a caller takes part in a run: its clock, transport and signals, and what it is told as the run goes. */
export interface RunHooks {
  /** driftcheck's version, as the journal and the report record it. */
  version: string;
  now?: () => Date;
  dispatcher?: Dispatcher;
  /** Headers the caller adds to a request (the CLI: the simulator's directives, loopback only). */
  requestHeaders?: (service: ServiceConfig, request: CompletionRequest) => Record<string, string>;
  /** Stop scheduling (first SIGINT/SIGTERM; its reason names the signal). */
  interrupt?: AbortSignal;
  /** Abandon in-flight requests too (grace period over, or a second signal). */
  abortInFlight?: AbortSignal;
  /** Where the console reporter prints, when it is asked for. */
  console?: Pick<ReporterContext, 'write' | 'color' | 'columns'>;
  /** Reporters of the caller's own, after the named ones: `--models` keeps each folded run to compare it. */
  observers?: readonly Reporter[];
  /** Called once the plan is known, before anything is sent. */
  onPlan?: (info: PlanInfo) => void;
  onResult?: (result: SampleResult) => void;
  onThrottle?: (service: string, concurrency: number) => void;
  /** Told when a table changed after its cases were sent: their prompts are left out of the reports. */
  onPromptsMissing?: PromptsMissing;
  /** Told when the run folder's or the history's lock, left by a killed process, is taken over. */
  onStaleLock?: (note: string) => void;
}

/**
 * One run as its stages read it: the request's settings and the command's plan as they were
 * made (by the CLI, or by runSuites for a library caller), the run's own plan, and the hooks.
 */
export interface RunJob {
  request: RunSettings;
  plan: Pick<RunPlanBase, 'suites' | 'casesOf' | 'reportDir' | 'historyDir' | 'costCap'> & {
    services: Omit<RunServices, 'providerLists'>;
  };
  run: PlannedRun;
  hooks: RunHooks;
}

export interface RunResult {
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
  /** Samples sent this session that came from the router's response cache (`hit`) or may have (`zero_usage`). */
  cached: { hit: number; zero_usage: number };
  /** With a cost cap: what the run has spent, all its sessions included (from the journal on resume). */
  spent: number | null;
  /**
   * What the history said: the file tonight was appended to (null when it was not), why it
   * was not (a candidate, simulator, shard or filtered run), and lines it passed over.
   */
  history: { appended: string | null; refused: string[]; problems: string[] } | null;
}

/**
 * One run, stage by stage: checked before anything is written (a refusal costs nothing) →
 * its folder opened (clients, lock, fold, history, journal) → every sample sent, journaled
 * and folded → reports, latest, history and baselines. What it holds is let go in one place,
 * its scope, however it ends; a failure lets the fold remove the reports it half wrote.
 */
export function runOnce(job: RunJob): Promise<RunResult> {
  return Resources.using(async (scope) => {
    const checked = await preflight(job);
    const opened = await openRun(job, checked, scope);
    job.hooks.onPlan?.(await planInfo(job, checked, opened));
    const sent = await sendPlan(job, checked, opened, scope);
    return finishRun(job, checked, opened, sent);
  });
}
