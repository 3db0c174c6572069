import { existsSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/load.js';
import { UsageError } from '../util/errors.js';
import { type RunMeta, readRunMeta, runStatusOf } from '../run/meta.js';
import { comparisonOf } from '../run/candidates-file.js';
import { selectionOf, selectionsOf, type SuiteSelection } from '../run/plan.js';
import { type CasesOf } from '../suite/load.js';
import { HELD_CASES, positiveInt, selectionFlags } from './plan-flags.js';
import { countOf } from '../util/numbers.js';
import { runSuites, type RunSuitesOptions } from './run-suites.js';
import type { CostCap } from '../run/cost-cap.js';
import { checkCandidatesEstimate, costCapFor, costLine, listPrices, parseMaxCost } from './cost-cap.js';
import { promptsMissingTo } from '../run/plan-messages.js';
import { loadSuites, suiteCasesOf } from '../suite/load.js';
import { simRequestHeaders } from '../sim/protocol.js';
import { baselinePath } from '../stored/baseline/store.js';
import type { Config } from '../config/types.js';
import type { Suite } from '../suite/types.js';
import type { ReportHead } from '../stored/report/types.js';
import { modelStopLines, stopLine, stopServices } from './stop-line.js';
import { exitLine } from './exit-line.js';
import { exitReason } from '../fold/summary.js';
import { resumeTarget } from './resume.js';
import { type CliIO, warnTo } from './io.js';
import { aliasCatalog } from './alias-catalog.js';
import { projectPaths } from './project.js';
import { parseReporters, publishSummary } from './outputs.js';
import { watchInterrupts } from './interrupts.js';
import { createProgress } from './progress.js';
import { version } from './version.js';
import { runOutput } from './run-json.js';
import { writeRunsIndex } from '../report/runs-index/write.js';
import type { Reporter } from '../fold/reporter.js';
import type { ComparedSide } from '../compare/side.js';
import { type PlannedCandidate, parseCandidates, planCandidates, skippedLines } from './candidates.js';
import { type CatalogReader, catalogReader, providerLists } from '../service/check-models.js';

const OPTIONS = {
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
} as const;

/** `driftcheck run`: the main job. */
export async function runCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  const project = projectPaths(io, values.config);
  let reportDir = project.dir(values['report-dir'], 'reports');
  const baselineDir = project.dir(values['baseline-dir'], 'baselines');
  const reporters = parseReporters(values.reporter);

  let resumeDir: string | undefined;
  let meta: Omit<RunMeta, 'id' | 'started_at'> & Partial<RunMeta>;
  // --model, --models, --providers: candidates against the current baseline. What cannot go
  // with --resume is refused; a resume runs the candidate its run.json names.
  const parsed = parseCandidates(values);
  const flags = values.resume ? null : parsed;
  if (values.json && flags?.compare)
    throw new UsageError(
      `--json prints one run's summary; ${flags.flag} runs several and compares them in compare.json (schema: schemas/compare.schema.json), whose path it prints on stderr\n  → drop --json and read compare.json, or run one candidate with --model`,
    );
  if (values.reference !== undefined && !flags?.compare)
    throw new UsageError(
      '--reference RUN_DIR compares --models or --providers candidates with a stored run instead of the current baseline\n  → add --models A,B or --providers a,b, or compare runs made earlier with `driftcheck compare RUN_DIR… --reference RUN_DIR`',
    );
  if (values.failed !== undefined && values.resume)
    throw new UsageError(
      '--failed RUN_DIR starts a new run of the cases that failed in RUN_DIR; --resume continues a run\n  → drop one of them',
    );
  // --failed RUN_DIR: a new run of the cases that failed, errored or regressed there, of the
  // suites it was given and with the answers it asked for, unless the command line says otherwise.
  const failed =
    values.failed !== undefined
      ? await (await import('./failed.js')).failedCases(resolve(io.cwd, values.failed), values.failed)
      : null;
  // A comparison of --models/--providers candidates resumed (its folder, or one of its runs):
  // every candidate is finished and compare.* rebuilt, in the folder's own reports/.
  let comparison: Awaited<ReturnType<typeof comparisonOf>> = null;
  if (values.resume) {
    const target = await resumeTarget(positionals, io.cwd, reportDir);
    comparison = await comparisonOf(target, () => readRunMeta(target));
    if (comparison) {
      meta = comparison.file.meta;
      reportDir = dirname(comparison.dir);
    } else {
      resumeDir = target;
      meta = await readRunMeta(resumeDir);
    }
    // A resume keeps the run's --bail; one given now holds for this session.
    if (values.bail !== undefined) meta.bail = positiveInt('--bail', values.bail);
  } else {
    const before = failed?.meta ?? null;
    const inherited = failed
      ? (await import('./failed.js')).inheritedPlan(before, {
          candidate: parsed !== null,
          service: values.service !== undefined,
          repeat: values.repeat !== undefined,
        })
      : {};
    meta = {
      command: ['driftcheck', 'run', ...args],
      paths: positionals.length ? positionals : before ? before.paths : [project.suites()],
      config_file: values.config ?? before?.config_file ?? null,
      allow_alias: Boolean(values['allow-alias']) || Boolean(before?.allow_alias),
      sim: Boolean(values.sim) || Boolean(before?.sim),
      plan: {
        ...inherited,
        ...selectionFlags(values, io.env),
        ...(values.service ? { service: values.service } : {}),
        ...(failed ? { cases: failed.cases } : {}),
      },
      concurrency: values.concurrency ? positiveInt('--concurrency', values.concurrency) : null,
      update_baselines: Boolean(values['update-baselines']),
      ...(values.bail !== undefined ? { bail: positiveInt('--bail', values.bail) } : {}),
    };
    if (meta.bail && meta.update_baselines)
      throw new UsageError(
        '--bail stops a run part-way, and --update-baselines writes baselines only from a run of every case\n  → drop one of them',
      );
  }
  // Read before the config: a mistyped amount is refused without reading anything.
  if (values['max-cost'] !== undefined) parseMaxCost(values['max-cost']);

  let config = await loadConfig(meta.config_file ?? undefined, io.env, io.cwd);
  const cap = costCapFor(values['max-cost'], meta, config);
  // Kept in run.json: a resume holds the same cap unless given a new --max-cost.
  if (!values.resume) meta.max_cost = cap;
  const loadOptions = { allowAlias: meta.allow_alias, cwd: io.cwd };
  const suites = await loadSuites(
    meta.paths.map((p) => resolve(io.cwd, p)),
    {
      ...loadOptions,
      onWarnings: warnTo(io, 'run'),
      fetchCatalog: aliasCatalog(config, io.env, meta.sim),
      // Every case is checked now; a small run holds them, a large one reads each suite
      // again when it reaches it. A cost cap is estimated over
      // every case before anything is sent: it holds them all.
      cases: cap ? 'all' : { hold: HELD_CASES },
    },
  );
  // A suite loaded without its cases is read again, case by case, when the run reaches it.
  const casesOf = suiteCasesOf(loadOptions);
  // A run without a suite's baseline checks that suite's expectations only: say so, and
  // with --require-baselines refuse it before anything is sent. A candidate's run too: it
  // is compared with the current baseline, and without one nothing of it is compared.
  const baselinesMissing = (counted: readonly { suites: readonly SuiteSelection[] }[]) => {
    if (meta.update_baselines) return;
    const missing = [...new Set(counted.flatMap((c) => c.suites.map((s) => s.suite.suite)))].filter(
      (suite) => !existsSync(baselinePath(baselineDir, suite)),
    );
    if (missing.length && values['require-baselines'])
      throw new UsageError(
        `--require-baselines: no baseline for ${missing.join(', ')} in ${relative(io.cwd, baselineDir) || '.'}\n  → accept one first (driftcheck run --update-baselines, or driftcheck baseline accept RUN_DIR)`,
      );
    for (const suite of missing)
      io.stderr(
        `driftcheck: warning: suite ${suite} has no baseline yet: only its expectations are checked, no drift (--require-baselines makes this an error)\n`,
      );
  };
  // What the plan selects, counted once (a filter or a shard reads a large suite for it):
  // the warnings below and the run read the same count.
  const selection = flags ? null : { plan: meta.plan, suites: await selectionOf(suites, meta.plan, casesOf) };
  if (selection) baselinesMissing([selection]);
  if (failed) {
    const { failedLine } = await import('./failed.js');
    io.stderr(failedLine(failed, values.failed!));
    const selected = selection?.suites.reduce((n, s) => n + s.cases, 0);
    if (selected !== undefined && selected > 0 && selected < failed.cases.length)
      io.stderr(
        `driftcheck: --failed: ${failed.cases.length - selected} of them ${meta.plan.filter || meta.plan.shard ? 'are left out by --filter/--shard or ' : ''}no longer in the suites\n`,
      );
  }
  let env = io.env;
  // What the user configured: a stop line names their key variable and base_url, not the simulator's.
  const configured = config;
  // The simulator's code loads only for --sim runs.
  const sim = meta.sim ? await (await import('./sim-setup.js')).simulateServices(config, env) : null;
  if (sim) ({ config, env } = sim);
  // Model lists read once for the candidates' fit and a cap's prices, before anything is sent.
  const catalogs = catalogReader(env);
  // Each candidate runs the suites it belongs to, decided before anything is sent.
  const planned = flags
    ? await planCandidates(flags, suites, meta.plan, config, catalogs, casesOf, providerLists(env)).catch(
        async (error: unknown) => {
          await sim?.simulator.close();
          throw error;
        },
      )
    : // A resumed comparison runs the candidates its candidates.json planned, as planned.
      (comparison?.file.candidates.map(({ candidate, plan, skipped }) => ({ candidate, plan, skipped })) ??
      null);
  // What each candidate's plan selects, counted in one pass: a filter or a shard reads each
  // large suite once for all the candidates, not once per candidate.
  const selections = planned
    ? await selectionsOf(
        suites,
        planned.map((p) => p.plan),
        casesOf,
      )
        .then((counted) => {
          const each = planned.map((p, i) => ({ plan: p.plan, suites: counted[i]! }));
          baselinesMissing(each);
          return each;
        })
        .catch(async (error: unknown) => {
          await sim?.simulator.close();
          throw error;
        })
    : selection
      ? [selection]
      : [];
  const costCap = cap
    ? await capContext(
        cap,
        // A resumed comparison is not estimated again, as a resumed run is not.
        Boolean(values['ignore-estimate']) || comparison !== null,
        planned,
        meta,
        suites,
        config,
        catalogs,
        baselineDir,
      ).catch(async (error: unknown) => {
        await sim?.simulator.close();
        throw error;
      })
    : null;
  const interrupts = watchInterrupts(io, graceMs(io.env));
  const historyDir = project.history(values.history, config);
  const once = (runMeta: typeof meta, dir?: string, observers?: Reporter[]) =>
    runAndPrint(
      {
        io,
        config,
        configured,
        env,
        suites,
        casesOf,
        reportDir,
        baselineDir,
        reporters,
        interrupts,
        sim: Boolean(sim),
        historyDir,
        historyForce: Boolean(values['history-force']),
        costCap,
        selections,
        catalogs,
        json: Boolean(values.json),
      },
      runMeta,
      dir,
      observers,
    );
  let referenceRun: ComparedSide | null = null;
  try {
    // Read before anything is sent: an unreadable reference, or one that ran none of the
    // cases a candidate would run, is refused up front (exit 2). A resumed comparison reads
    // the one it was started with.
    const referenceDir =
      values.reference !== undefined
        ? resolve(io.cwd, values.reference)
        : comparison?.file.reference
          ? resolve(comparison.dir, comparison.file.reference)
          : null;
    if (referenceDir !== null && planned) {
      referenceRun = await (await import('../compare/folded-run.js')).readComparedRun(referenceDir);
      if (!comparison)
        await (
          await import('./compare-candidates.js')
        ).refuseDisjointReference(referenceRun, planned, suites, casesOf);
    }
    if (!planned) return (await once(meta, resumeDir)).run.exit_code;
    if (flags && !flags.compare) {
      const [one] = planned;
      io.stderr(skippedLines(`candidate ${one!.candidate.model}`, one!.skipped));
      return (await once({ ...meta, plan: one!.plan })).run.exit_code;
    }
    // --models, --providers: one run per candidate, each against the current baseline, then
    // side by side against that baseline or the --reference run. What the comparison is made
    // of is written first (candidates.json), so a command stopped part-way can be finished.
    const { baselineReference, newComparison, runCandidates, runReference } =
      await import('./compare-candidates.js');
    const { liveComparedRun, readComparedRun } = await import('../compare/folded-run.js');
    const made =
      comparison ??
      (await newComparison(
        flags!.flag as '--models' | '--providers',
        planned,
        meta,
        reportDir,
        referenceDir,
      ));
    const name = basename(made.dir);
    return await runCandidates(
      io,
      made.file,
      made.dir,
      interrupts.interrupt,
      async (entry) => {
        const runDir = join(reportDir, entry.run_id);
        if (comparison && (await runStatusOf(join(runDir, 'report.json'))) === 'completed') {
          io.stderr(`driftcheck: its run ${entry.run_id} completed earlier: compared as it is\n`);
          return readComparedRun(runDir);
        }
        const selected = selections.find((s) => s.plan === entry.plan)?.suites ?? [];
        const kept = liveComparedRun(
          (id) => join(reportDir, id),
          selected.reduce((n, s) => n + s.cases, 0),
        );
        // Started earlier and stopped: resumed, its journal kept.
        if (comparison && existsSync(join(runDir, 'run.json')))
          await once(await readRunMeta(runDir), runDir, [kept.reporter]);
        else
          await once({ ...meta, id: entry.run_id, plan: entry.plan, comparison: name }, undefined, [
            kept.reporter,
          ]);
        return kept.side();
      },
      referenceRun ? runReference(referenceRun) : baselineReference(baselineDir),
    ).finally(() => writeRunsIndex(reportDir));
  } finally {
    interrupts.dispose();
    await referenceRun?.discard();
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
  casesOf: CasesOf;
  reportDir: string;
  baselineDir: string;
  reporters: Set<string>;
  interrupts: ReturnType<typeof watchInterrupts>;
  sim: boolean;
  historyDir: string | null;
  historyForce: boolean;
  /** The cost cap, held over every run of the command (`--models`: what each spends counts for the next). */
  costCap: NonNullable<RunSuitesOptions['costCap']> | null;
  /** What each plan this command runs selects, counted before the first is run. */
  selections: NonNullable<RunSuitesOptions['selection']>[];
  /** The services' model lists, read at most once for the whole command. */
  catalogs: CatalogReader;
  /** `--json`: stdout holds only the run's summary as JSON; the console summary goes to stderr. */
  json: boolean;
}

/** One run (or resume) from plan to printed summary; returns its report. */
async function runAndPrint(
  ctx: RunContext,
  meta: Omit<RunMeta, 'id' | 'started_at'> & Partial<RunMeta>,
  resumeDir?: string,
  observers?: Reporter[],
): Promise<ReportHead> {
  const { io, reporters } = ctx;
  const selection = ctx.selections.find((s) => s.plan === meta.plan);
  // The progress line shows only counts, and redraws itself in place with its own escapes.
  const progress = createProgress({
    write: io.styled.stderr,
    tty: io.tty,
    columns: io.columns,
    ...(io.tty ? { truncate: (await import('../report/terminal.js')).truncate } : {}),
  });
  const result = await runSuites({
    config: ctx.config,
    suites: ctx.suites,
    casesOf: ctx.casesOf,
    env: ctx.env,
    catalogs: ctx.catalogs,
    reportDir: ctx.reportDir,
    baselineDir: ctx.baselineDir,
    meta,
    ...(resumeDir ? { resumeDir } : {}),
    version: version(),
    reporters,
    ...(observers ? { observers } : {}),
    requestHeaders: simRequestHeaders,
    // The summary starts on a line of its own, never on the progress line.
    console: {
      // The console report escapes what it quotes itself, and adds its colours.
      write: (text) => {
        progress.finish();
        (ctx.json ? io.styled.stderr : io.styled.stdout)(text);
      },
      color: io.color,
      ...(io.columns ? { columns: io.columns } : {}),
    },
    ...(ctx.historyDir ? { history: { dir: ctx.historyDir, cwd: io.cwd, force: ctx.historyForce } } : {}),
    ...(ctx.costCap ? { costCap: ctx.costCap } : {}),
    // Counted for this very plan, or counted again by the run.
    ...(selection ? { selection } : {}),
    interrupt: ctx.interrupts.interrupt,
    abortInFlight: ctx.interrupts.abortInFlight,
    onThrottle: (service, concurrency) => {
      progress.finish();
      io.stderr(`driftcheck: ${service} is rate limiting — concurrency now ${concurrency}\n`);
    },
    onPlan: ({ runDir, planned, alreadyDone, cases, suites, cost }) => {
      const { shard } = meta.plan;
      const resumed = alreadyDone ? ` (${alreadyDone} already done, resuming)` : '';
      const samples = planned === cases ? '' : ` (${countOf(planned, 'sample')})`;
      // A suite with fewer cases than shards: this job runs empty so that merge finds it.
      const what =
        cases === 0 && shard
          ? `shard ${shard.index}/${shard.total} drew no case (fewer cases than shards): an empty run for the merge`
          : `${countOf(cases, 'case')}${samples} from ${countOf(suites, 'suite')}${resumed}${ctx.sim ? ' on the embedded simulator' : ''}`;
      io.stderr(`driftcheck: ${what} → ${relative(io.cwd, runDir)}\n`);
      if (cost) io.stderr(costLine(cost));
      progress.start(planned, alreadyDone);
    },
    onResult: (r) => progress.update(r),
    cwd: io.cwd,
    onPromptsMissing: promptsMissingTo((line) => {
      progress.finish();
      io.stderr(line);
    }, 'driftcheck'),
    onStaleLock: (note) => {
      progress.finish();
      io.stderr(`driftcheck: ${note}\n`);
    },
  });
  progress.finish();
  const { report, runDir } = result;
  // The next run of the command (`--models`) starts from what this one spent.
  if (ctx.costCap && result.spent !== null) ctx.costCap.spentBefore = result.spent;
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
  // The folder's index of runs (driftcheck open serves it), with this one at its top.
  await writeRunsIndex(ctx.reportDir);
  for (const file of result.baselinesWritten) io.stderr(`baseline written: ${relative(io.cwd, file)}\n`);
  if (result.baselinesSkipped) io.stderr(`baselines not updated: ${result.baselinesSkipped}\n`);
  const stopped = stopLine(
    report,
    `driftcheck run --resume ${relative(io.cwd, runDir)}`,
    stopServices(report, ctx.suites, ctx.configured),
  );
  // A stopped run's line says why (stopLine); a complete one that fails says what failed.
  if (stopped) io.stderr(stopped);
  io.stderr(modelStopLines(report));
  if (!stopped) io.stderr(exitLine('run', report.run.exit_code, exitReason(report.run, report.summary)));
  if (ctx.json)
    io.stdout(
      `${JSON.stringify(
        runOutput(report, {
          cwd: io.cwd,
          runDir,
          files: result.files,
          baselinesWritten: result.baselinesWritten,
        }),
        null,
        2,
      )}\n`,
    );
  return report;
}

/**
 * The cost cap as the runs take it: prices from the routing services' model lists, and for
 * `--models`/`--providers` every candidate's run estimated together before the first is sent
 * (each run then skips its own check, and counts what the earlier ones spent).
 */
async function capContext(
  cap: CostCap,
  ignoreEstimate: boolean,
  planned: PlannedCandidate[] | null,
  meta: Omit<RunMeta, 'id' | 'started_at'> & Partial<RunMeta>,
  suites: Suite[],
  config: Config,
  catalogs: CatalogReader,
  baselineDir: string,
): Promise<NonNullable<RunSuitesOptions['costCap']>> {
  const plans = planned ? planned.map((p) => p.plan) : [meta.plan];
  const prices = await listPrices(suites, plans, config, catalogs);
  const several = planned !== null && planned.length > 1;
  if (several && !ignoreEstimate)
    await checkCandidatesEstimate({ cap, suites, plans, config, baselineDir, listPrices: prices });
  return { cap, ignoreEstimate: ignoreEstimate || several, listPrices: prices, spentBefore: 0 };
}

/** How long an interrupted run waits for in-flight requests (DRIFTCHECK_INTERRUPT_GRACE_S, default 10 s). */
function graceMs(env: NodeJS.ProcessEnv): number {
  const seconds = Number(env.DRIFTCHECK_INTERRUPT_GRACE_S ?? 10);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 10_000;
}
