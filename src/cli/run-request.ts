import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../util/errors.js';
import { gitFromEnv } from '../history/git.js';
import type { GitInfo } from '../stored/history/types.js';
import type { PlanOptions } from '../stored/journal/records.js';
import { type CandidateFlags, parseCandidates } from './candidates.js';
import { parseMaxCost } from './cost-cap.js';
import { parseReporters } from './outputs.js';
import { positiveInt, selectionFlags } from './plan-flags.js';
import type { ProjectPaths } from './project.js';

/** `driftcheck run`'s flags as parseArgs reads them; help.ts says what each does. */
const RUN_FLAGS = {
  config: { type: 'string' },
  sim: { type: 'boolean' },
  service: { type: 'string' },
  model: { type: 'string' },
  models: { type: 'string' },
  providers: { type: 'string' },
  repeat: { type: 'string' },
  concurrency: { type: 'string' },
  filter: { type: 'string' },
  shard: { type: 'string' },
  resume: { type: 'boolean' },
  'update-baselines': { type: 'boolean' },
  'report-dir': { type: 'string' },
  'baseline-dir': { type: 'string' },
  reporter: { type: 'string' },
  'allow-alias': { type: 'boolean' },
  history: { type: 'string' },
  'history-force': { type: 'boolean' },
  'require-baselines': { type: 'boolean' },
  'max-cost': { type: 'string' },
  'ignore-estimate': { type: 'boolean' },
  reference: { type: 'string' },
  bail: { type: 'string' },
  failed: { type: 'string' },
  json: { type: 'boolean' },
  stream: { type: 'boolean' },
} as const;

/**
 * What a run reads of the request while it runs (run-once.ts); runSuites makes the same for
 * a library caller, and leaves out what is optional.
 */
export interface RunSettings {
  /** Where paths are resolved from and shown from (and git asked about the commit, for the history). */
  cwd: string;
  /** The commit and branch the CI's variables name (GITHUB_SHA…), for the history line. */
  ciGit: GitInfo;
  baselineDir: string;
  reporters: ReadonlySet<string>;
  /** `--history-force`: tonight is appended to the history even when it is no night. */
  historyForce?: boolean;
}

/**
 * `driftcheck run` as its command line asks for it: every flag parsed and checked, defaults
 * applied, paths resolved. Made once, by resolveRun; the plan and the run read it as it is.
 */
export interface RunRequest extends RunSettings {
  /** The command line, as run.json keeps it. */
  command: string[];
  /** The project the command works in: its default suites/, and the config's history folder. */
  project: ProjectPaths;
  /**
   * The suites (files or folders) as given, kept so in run.json; none: a `--failed` run's,
   * else the project's suites/. With `--resume`: the run, comparison or suites to continue.
   */
  paths: string[];
  /** `--config FILE`, as given. */
  configFile: string | undefined;
  /** `--resume`: continue a run (or a comparison) as its run.json planned it. */
  resume: boolean;
  reportDir: string;
  sim: boolean;
  allowAlias: boolean;
  /** `--service NAME`: every suite is sent to it. */
  service: string | undefined;
  /** `--model`, `--models`, `--providers`; null for a nightly run, and on a resume (it runs the candidate its run.json names). */
  candidates: CandidateFlags | null;
  /** `--filter`, `--shard`, `--repeat`, `--stream`: none on a resume, which plans as it started. */
  selection: Pick<PlanOptions, 'filter' | 'shard' | 'repeat' | 'stream'>;
  /** `--concurrency N` (none on a resume). */
  concurrency: number | null;
  updateBaselines: boolean;
  requireBaselines: boolean;
  /** `--bail N`: a resume keeps the run's own unless one is given now. */
  bail: number | null;
  /** `--max-cost USD` as given, checked: costCapFor weighs it against run.json and the config. */
  maxCost: string | undefined;
  ignoreEstimate: boolean;
  /** `--history DIR`, resolved (none: the config's `history:`, if any). */
  history: string | undefined;
  /** `--reference RUN_DIR`, resolved. */
  reference: string | null;
  /** `--failed RUN_DIR`, resolved, with what this command line sets itself (the rest is that run's). */
  failed: {
    dir: string;
    shown: string;
    given: { candidate: boolean; service: boolean; repeat: boolean };
  } | null;
  /** `--json`: stdout holds only the run's summary as JSON; the console summary goes to stderr. */
  json: boolean;
  /** How long an interrupted run waits for requests in flight (DRIFTCHECK_INTERRUPT_GRACE_S). */
  graceMs: number;
}

/**
 * `driftcheck run`'s command line as one request, or a usage error (exit 2) before anything
 * is read. Pure: `locate` finds the project from `--config` (tests pass a fake).
 */
export function resolveRun(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  locate: (configFlag: string | undefined) => ProjectPaths,
): RunRequest {
  const { values, positionals } = parseArgs({
    args,
    options: RUN_FLAGS,
    allowPositionals: true,
    strict: true,
  });
  const project = locate(values.config);
  const reporters = parseReporters(values.reporter);
  const resume = Boolean(values.resume);
  // What cannot go with --resume is refused; a resume runs the candidate its run.json names.
  const parsed = parseCandidates(values);
  const candidates = resume ? null : parsed;
  if (values.json && candidates?.compare)
    throw new UsageError(
      `--json prints one run's summary; ${candidates.flag} runs several and compares them in compare.json (schema: schemas/compare.schema.json), whose path it prints on stderr\n  → drop --json and read compare.json, or run one candidate with --model`,
    );
  if (values.reference !== undefined && !candidates?.compare)
    throw new UsageError(
      '--reference RUN_DIR compares --models or --providers candidates with a stored run instead of the current baseline\n  → add --models A,B or --providers a,b, or compare runs made earlier with `driftcheck compare RUN_DIR… --reference RUN_DIR`',
    );
  if (values.failed !== undefined && resume)
    throw new UsageError(
      '--failed RUN_DIR starts a new run of the cases that failed in RUN_DIR; --resume continues a run\n  → drop one of them',
    );
  const selection = resume
    ? {}
    : { ...selectionFlags(values, env), ...(values.stream ? { stream: true as const } : {}) };
  const concurrency = !resume && values.concurrency ? positiveInt('--concurrency', values.concurrency) : null;
  const bail = values.bail !== undefined ? positiveInt('--bail', values.bail) : null;
  if (bail && values['update-baselines'] && !resume)
    throw new UsageError(
      '--bail stops a run part-way, and --update-baselines writes baselines only from a run of every case\n  → drop one of them',
    );
  // Checked before anything is read: a mistyped amount costs nothing.
  if (values['max-cost'] !== undefined) parseMaxCost(values['max-cost']);
  return {
    command: ['driftcheck', 'run', ...args],
    cwd,
    project,
    paths: positionals,
    configFile: values.config,
    ciGit: gitFromEnv(env),
    resume,
    reportDir: project.dir(values['report-dir'], 'reports'),
    baselineDir: project.dir(values['baseline-dir'], 'baselines'),
    reporters,
    sim: Boolean(values.sim),
    allowAlias: Boolean(values['allow-alias']),
    service: values.service,
    candidates,
    selection,
    concurrency,
    updateBaselines: Boolean(values['update-baselines']),
    requireBaselines: Boolean(values['require-baselines']),
    bail,
    maxCost: values['max-cost'],
    ignoreEstimate: Boolean(values['ignore-estimate']),
    history: values.history !== undefined ? resolve(cwd, values.history) : undefined,
    historyForce: Boolean(values['history-force']),
    reference: values.reference !== undefined ? resolve(cwd, values.reference) : null,
    failed:
      values.failed !== undefined
        ? {
            dir: resolve(cwd, values.failed),
            shown: values.failed,
            given: {
              candidate: parsed !== null,
              service: values.service !== undefined,
              repeat: values.repeat !== undefined,
            },
          }
        : null,
    json: Boolean(values.json),
    graceMs: graceMs(env),
  };
}

/** DRIFTCHECK_INTERRUPT_GRACE_S in milliseconds (default 10 s). */
function graceMs(env: NodeJS.ProcessEnv): number {
  const seconds = Number(env.DRIFTCHECK_INTERRUPT_GRACE_S ?? 10);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 10_000;
}
