import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/load.js';
import { UsageError } from '../errors.js';
import { type RunMeta, readRunMeta } from '../run/meta.js';
import { suitesInPlan } from '../run/plan.js';
import { positiveInt, selectionFlags } from './plan-flags.js';
import { countOf } from '../report/numbers.js';
import { runSuites } from '../run/run-suites.js';
import { loadSuites } from '../suite/load.js';
import { simRequestHeaders } from '../sim/protocol.js';
import { isAlias } from '../suite/alias.js';
import { baselinePath } from '../baseline/store.js';
import type { CandidateRun } from '../report/candidates.js';
import type { Config, ReportHead, Suite } from '../types.js';
import { worstExit } from '../exit-codes.js';
import { stopLine, stopServices } from './stop-line.js';
import { resumeTarget } from './resume.js';
import type { CliIO } from './io.js';
import { projectPaths } from './project.js';
import { parseReporters, publishSummary } from './outputs.js';
import { watchInterrupts } from './interrupts.js';
import { createProgress } from './progress.js';
import { version } from './version.js';
import { loadReport } from '../report/read.js';
import { checkCandidateModels } from '../service/check-models.js';

const OPTIONS = {
  config: { type: 'string' },
  sim: { type: 'boolean' },
  service: { type: 'string' },
  model: { type: 'string' },
  models: { type: 'string' },
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
} as const;

/** `driftcheck run`: the main job. */
export async function runCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  const project = projectPaths(io, values.config);
  const reportDir = project.dir(values['report-dir'], 'reports');
  const baselineDir = project.dir(values['baseline-dir'], 'baselines');
  const reporters = parseReporters(values.reporter);

  let resumeDir: string | undefined;
  let meta: Omit<RunMeta, 'id' | 'started_at'> & Partial<RunMeta>;
  if (values.resume) {
    resumeDir = await resumeTarget(positionals, io.cwd, reportDir);
    meta = await readRunMeta(resumeDir);
  } else {
    meta = {
      command: ['driftcheck', 'run', ...args],
      paths: positionals.length ? positionals : [project.dir(undefined, 'suites')],
      config_file: values.config ?? null,
      allow_alias: Boolean(values['allow-alias']),
      sim: Boolean(values.sim),
      plan: {
        ...selectionFlags(values, io.env),
        ...(values.model ? { model: values.model } : {}),
        ...(values.service ? { service: values.service } : {}),
      },
      concurrency: values.concurrency ? positiveInt('--concurrency', values.concurrency) : null,
      update_baselines: Boolean(values['update-baselines']),
    };
    if (meta.plan.model && meta.update_baselines) {
      throw new UsageError(
        '--model runs a candidate against the current baseline and cannot also --update-baselines; review the report, then `driftcheck baseline accept RUN_DIR`',
      );
    }
  }

  const candidates = values.models ? parseModels(values.models, values) : null;
  // An alias from the command line is refused like one in a suite: it can move between runs.
  for (const model of [...(meta.plan.model ? [meta.plan.model] : []), ...(candidates ?? [])]) {
    if (isAlias(model) && !meta.allow_alias)
      throw new UsageError(
        `--model${candidates ? 's' : ''}: ${model} is a ~latest alias, which can resolve to another model tomorrow\n  → name a concrete model (driftcheck pin resolves an alias to today's), or pass --allow-alias`,
      );
  }
  let config = await loadConfig(meta.config_file ?? undefined, io.env, io.cwd);
  const suites = await loadSuites(
    meta.paths.map((p) => resolve(io.cwd, p)),
    { allowAlias: meta.allow_alias, cwd: io.cwd },
  );
  // A nightly run without a suite's baseline checks that suite's expectations only: say so,
  // and with --require-baselines refuse it before anything is sent.
  if (!meta.update_baselines && !meta.plan.model && !candidates) {
    const missing = suitesInPlan(suites, meta.plan)
      .filter((s) => !existsSync(baselinePath(baselineDir, s.suite)))
      .map((s) => s.suite);
    if (missing.length && values['require-baselines'])
      throw new UsageError(
        `--require-baselines: no baseline for ${missing.join(', ')} in ${relative(io.cwd, baselineDir) || '.'}\n  → accept one first (driftcheck run --update-baselines, or driftcheck baseline accept RUN_DIR)`,
      );
    for (const suite of missing)
      io.stderr(
        `driftcheck: warning: suite ${suite} has no baseline yet: only its expectations are checked, no drift (--require-baselines makes this an error)\n`,
      );
  }
  let env = io.env;
  // What the user configured: a stop line names their key variable and base_url, not the simulator's.
  const configured = config;
  // The simulator's code loads only for --sim runs.
  const sim = meta.sim ? await (await import('./sim-setup.js')).simulateServices(config, env) : null;
  if (sim) ({ config, env } = sim);
  if (!resumeDir) {
    // A mistyped candidate is caught against the router's model list before anything is sent.
    const services = suitesInPlan(suites, meta.plan).flatMap(
      (s) => config.services[meta.plan.service ?? s.service] ?? [],
    );
    const models = [...(meta.plan.model ? [meta.plan.model] : []), ...(candidates ?? [])];
    await checkCandidateModels(
      models,
      [...new Set(services)],
      env,
      candidates ? '--models' : '--model',
    ).catch(async (error: unknown) => {
      await sim?.simulator.close();
      throw error;
    });
  }
  const interrupts = watchInterrupts(io, graceMs(io.env));
  const historyDir = project.history(values.history, config);
  const once = (runMeta: typeof meta, dir?: string) =>
    runAndPrint(
      {
        io,
        config,
        configured,
        env,
        suites,
        reportDir,
        baselineDir,
        reporters,
        interrupts,
        sim: Boolean(sim),
        historyDir,
        historyForce: Boolean(values['history-force']),
      },
      runMeta,
      dir,
    );
  try {
    if (!candidates) return (await once(meta, resumeDir)).run.exit_code;
    // --models: one run per candidate, each against the current baseline, then side by side.
    const runs: CandidateRun[] = [];
    for (const model of candidates) {
      if (interrupts.interrupt.aborted) break;
      io.stderr(`\ndriftcheck: candidate ${model}\n`);
      const head = await once({ ...meta, plan: { ...meta.plan, model } });
      runs.push({ model, report: await loadReport(join(reportDir, head.run.id)) });
    }
    const { renderCandidateComparison } = await import('../report/candidates.js');
    io.stdout(`\nCandidates against the current baseline:\n${renderCandidateComparison(runs)}`);
    return worstExit(runs.map((r) => r.report.run.exit_code));
  } finally {
    interrupts.dispose();
    await sim?.simulator.close();
  }
}

interface RunContext {
  io: CliIO;
  config: Config;
  /** The config as written, before --sim pointed it at the simulator. */
  configured: Config;
  env: NodeJS.ProcessEnv;
  suites: Suite[];
  reportDir: string;
  baselineDir: string;
  reporters: Set<string>;
  interrupts: ReturnType<typeof watchInterrupts>;
  sim: boolean;
  historyDir: string | null;
  historyForce: boolean;
}

/** One run (or resume) from plan to printed summary; returns its report. */
async function runAndPrint(
  ctx: RunContext,
  meta: Omit<RunMeta, 'id' | 'started_at'> & Partial<RunMeta>,
  resumeDir?: string,
): Promise<ReportHead> {
  const { io, reporters } = ctx;
  // The progress line shows only counts, and redraws itself in place with its own escapes.
  const progress = createProgress({ write: io.styled.stderr, tty: io.tty, columns: io.columns });
  const result = await runSuites({
    config: ctx.config,
    suites: ctx.suites,
    env: ctx.env,
    reportDir: ctx.reportDir,
    baselineDir: ctx.baselineDir,
    meta,
    ...(resumeDir ? { resumeDir } : {}),
    version: version(),
    reporters,
    requestHeaders: simRequestHeaders,
    // The summary starts on a line of its own, never on the progress line.
    console: {
      // The console report escapes what it quotes itself, and adds its colours.
      write: (text) => {
        progress.finish();
        io.styled.stdout(text);
      },
      color: io.color,
      ...(io.columns ? { columns: io.columns } : {}),
    },
    ...(ctx.historyDir ? { history: { dir: ctx.historyDir, cwd: io.cwd, force: ctx.historyForce } } : {}),
    interrupt: ctx.interrupts.interrupt,
    abortInFlight: ctx.interrupts.abortInFlight,
    onThrottle: (service, concurrency) => {
      progress.finish();
      io.stderr(`driftcheck: ${service} is rate limiting — concurrency now ${concurrency}\n`);
    },
    onPlan: ({ runDir, planned, alreadyDone, cases, suites }) => {
      const { shard } = meta.plan;
      const resumed = alreadyDone ? ` (${alreadyDone} already done, resuming)` : '';
      const samples = planned === cases ? '' : ` (${countOf(planned, 'sample')})`;
      // A suite with fewer cases than shards: this job runs empty so that merge finds it.
      const what =
        cases === 0 && shard
          ? `shard ${shard.index}/${shard.total} drew no case (fewer cases than shards): an empty run for the merge`
          : `${countOf(cases, 'case')}${samples} from ${countOf(suites, 'suite')}${resumed}${ctx.sim ? ' on the embedded simulator' : ''}`;
      io.stderr(`driftcheck: ${what} → ${relative(io.cwd, runDir)}\n`);
      progress.start(planned, alreadyDone);
    },
    onResult: (r) => progress.update(r),
    onStaleLock: (note) => {
      progress.finish();
      io.stderr(`driftcheck: ${note}\n`);
    },
  });
  progress.finish();
  const { report, runDir } = result;
  await publishSummary(io, runDir, reporters);
  if (result.redacted)
    io.stderr(
      `driftcheck: a key value was found and replaced by [REDACTED] in ${result.redacted} sample(s)\n`,
    );
  for (const problem of result.history?.problems ?? [])
    io.stderr(`driftcheck: history: passed over ${problem}\n`);
  if (result.history?.appended) io.stderr(`history: ${relative(io.cwd, result.history.appended)}\n`);
  if (result.history?.refused.length)
    io.stderr(
      `history: not appended: this is ${result.history.refused.join(', ')}, not a night\n  → --history-force appends it anyway (the trend page marks it as forced)\n`,
    );
  if (result.journalSkipped) {
    io.stderr(
      `driftcheck: ignored ${result.journalSkipped} unreadable journal line(s) (a torn write, or an edited line); those samples were sent again\n`,
    );
  }
  io.stderr(`report: ${result.files.map((f) => relative(io.cwd, f)).join(' · ')}\n`);
  for (const file of result.baselinesWritten) io.stderr(`baseline written: ${relative(io.cwd, file)}\n`);
  if (result.baselinesSkipped) io.stderr(`baselines not updated: ${result.baselinesSkipped}\n`);
  const stopped = stopLine(
    report,
    `driftcheck run --resume ${relative(io.cwd, runDir)}`,
    stopServices(report, ctx.suites, ctx.configured),
  );
  if (stopped) io.stderr(stopped);
  return report;
}

/** `--models A,B`: candidates, each a concrete id; not with --model, --resume or --update-baselines. */
function parseModels(
  list: string,
  values: { model?: string; resume?: boolean; 'update-baselines'?: boolean },
): string[] {
  const models = [
    ...new Set(
      list
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean),
    ),
  ];
  if (models.length === 0) throw new UsageError('--models expects a comma-separated list of model ids');
  if (values.model || values.resume || values['update-baselines']) {
    throw new UsageError(
      '--models compares candidates against the current baseline: it cannot go with --model, --resume or --update-baselines',
    );
  }
  return models;
}

/** How long an interrupted run waits for in-flight requests (DRIFTCHECK_INTERRUPT_GRACE_S, default 10 s). */
function graceMs(env: NodeJS.ProcessEnv): number {
  const seconds = Number(env.DRIFTCHECK_INTERRUPT_GRACE_S ?? 10);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 10_000;
}
