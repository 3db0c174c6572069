import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/load.js';
import { UsageError } from '../errors.js';
import { renderConsoleSummary } from '../report/console.js';
import { findResumableRun, type RunMeta, readRunMeta } from '../run/meta.js';
import { parseShard } from '../run/plan.js';
import { runSuites } from '../run/run-suites.js';
import { loadSuites } from '../suite/load.js';
import type { CliIO } from './io.js';
import { parseReporters, publishSummary } from './outputs.js';
import { watchInterrupts } from './interrupts.js';
import { createProgress } from './progress.js';
import { simulateServices } from './sim-setup.js';
import { version } from './version.js';

const OPTIONS = {
  config: { type: 'string' },
  sim: { type: 'boolean' },
  service: { type: 'string' },
  model: { type: 'string' },
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
} as const;

/** `driftcheck run`: the main job. */
export async function runCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  const reportDir = resolve(io.cwd, values['report-dir'] ?? 'reports');
  const baselineDir = resolve(io.cwd, values['baseline-dir'] ?? 'baselines');
  const reporters = parseReporters(values.reporter);

  let resumeDir: string | undefined;
  let meta: Omit<RunMeta, 'id' | 'started_at'> & Partial<RunMeta>;
  if (values.resume) {
    // `--resume RUN_DIR`: the first positional names a run folder when it holds a run.json.
    const candidate = positionals[0] ? resolve(io.cwd, positionals[0]) : null;
    resumeDir =
      candidate && existsSync(join(candidate, 'run.json'))
        ? candidate
        : ((await findResumableRun(reportDir)) ?? undefined);
    if (!resumeDir)
      throw new UsageError(
        `--resume: no paused or interrupted run under ${relative(io.cwd, reportDir) || '.'}; pass the run folder (reports/<run-id>)`,
      );
    meta = await readRunMeta(resumeDir);
  } else {
    meta = {
      command: ['driftcheck', 'run', ...args],
      paths: positionals.length ? positionals : ['suites'],
      config_file: values.config ?? null,
      allow_alias: Boolean(values['allow-alias']),
      sim: Boolean(values.sim),
      plan: {
        ...(values.repeat ? { repeat: positiveInt('--repeat', values.repeat) } : {}),
        ...(values.filter ? { filter: values.filter } : {}),
        ...(values.shard ? { shard: parseShard(values.shard) } : {}),
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

  let config = await loadConfig(meta.config_file ?? undefined, io.env, io.cwd);
  const suites = await loadSuites(
    meta.paths.map((p) => resolve(io.cwd, p)),
    { allowAlias: meta.allow_alias, cwd: io.cwd },
  );
  let env = io.env;
  const sim = meta.sim ? await simulateServices(config, env) : null;
  if (sim) ({ config, env } = sim);
  const interrupts = watchInterrupts(io, graceMs(io.env));
  const progress = createProgress({ write: io.stderr, tty: io.tty });
  try {
    const result = await runSuites({
      config,
      suites,
      env,
      reportDir,
      baselineDir,
      meta,
      ...(resumeDir ? { resumeDir } : {}),
      version: version(),
      reporters,
      interrupt: interrupts.interrupt,
      abortInFlight: interrupts.abortInFlight,
      onThrottle: (service, concurrency) =>
        io.stderr(`driftcheck: ${service} is rate limiting — concurrency now ${concurrency}\n`),
      onPlan: ({ runDir, planned, alreadyDone }) => {
        const resumed = alreadyDone ? ` (${alreadyDone} already done, resuming)` : '';
        io.stderr(
          `driftcheck: ${planned} samples from ${suites.length} suite(s)${resumed}${sim ? ' on the embedded simulator' : ''} → ${relative(io.cwd, runDir)}\n`,
        );
        progress.start(planned, alreadyDone);
      },
      onResult: (r) => progress.update(r),
    });
    progress.finish();
    const { report, runDir } = result;
    if (reporters.has('console')) io.stdout(renderConsoleSummary(report, { color: io.color }));
    await publishSummary(io, runDir, reporters);
    const redacted = report.cases.filter((c) => c.redacted).length;
    if (redacted)
      io.stderr(`driftcheck: a key value was found and replaced by [REDACTED] in ${redacted} case(s)\n`);
    if (result.journalSkipped)
      io.stderr(
        `driftcheck: ignored ${result.journalSkipped} unreadable journal line(s) (a torn write); those samples were sent again\n`,
      );
    io.stderr(`report: ${result.files.map((f) => relative(io.cwd, f)).join(' · ')}\n`);
    for (const file of result.baselinesWritten) io.stderr(`baseline written: ${relative(io.cwd, file)}\n`);
    if (result.baselinesSkipped) io.stderr(`baselines not updated: ${result.baselinesSkipped}\n`);
    if (report.run.status !== 'completed') {
      io.stderr(
        `${report.run.status}: ${report.summary.not_run} sample(s) not run. Resume with: driftcheck run --resume ${relative(io.cwd, runDir)}\n`,
      );
    }
    return report.run.exit_code;
  } finally {
    interrupts.dispose();
    await sim?.simulator.close();
  }
}

/** How long an interrupted run waits for in-flight requests (DRIFTCHECK_INTERRUPT_GRACE_S, default 10 s). */
function graceMs(env: NodeJS.ProcessEnv): number {
  const seconds = Number(env.DRIFTCHECK_INTERRUPT_GRACE_S ?? 10);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 10_000;
}

function positiveInt(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${flag} expects a whole number ≥ 1, got '${text}'`);
  return n;
}
