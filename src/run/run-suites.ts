import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import { baselinePath, readBaseline, writeBaseline } from '../baseline/store.js';
import { InputError } from '../errors.js';
import { createServiceClient } from '../service/client.js';
import { resolveApiKey } from '../service/preflight.js';
import { createRedactor } from '../service/redact.js';
import type { Baseline, BaselineCase, CaseResult, Config, Report, ServiceClient, Suite } from '../types.js';
import { prefetch } from '../util/lazy.js';
import { isLoopbackUrl } from '../util/loopback.js';
import { judgeTargets } from '../checks/judge.js';
import { unconfiguredServices } from '../config/services.js';
import { executePlan } from './execute.js';
import { openJournal, readJournal } from './journal.js';
import { newRunId, type RunMeta, writeRunMeta } from './meta.js';
import { type PlannedCase, planRun } from './plan.js';
import { isAccessStop } from './result.js';

const ALL_FILE_REPORTERS: ReadonlySet<string> = new Set(['html', 'junit', 'markdown']);

/**
 * The code that runs once every answer is in (report building and writing). It is
 * loaded once the first answer has come back, while requests are in flight, instead of
 * before the first request is sent or after the last one.
 */
function finishingModules() {
  return Promise.all([
    import('../report/build.js'),
    import('../report/outputs.js'),
    import('../report/write.js'),
  ]);
}

export interface RunSuitesOptions {
  config: Config;
  suites: Suite[];
  /** Where keys are read from (`api_key_env`). */
  env: NodeJS.ProcessEnv;
  /** Parent of every run folder (`reports/`). */
  reportDir: string;
  baselineDir: string;
  /** What to store in run.json and the report; for a resumed run, the original meta. */
  meta: Omit<RunMeta, 'id' | 'started_at'> & Partial<Pick<RunMeta, 'id' | 'started_at'>>;
  /** Continue this run folder: samples already in its journal are not sent again. */
  resumeDir?: string;
  version: string;
  /** Stop scheduling (first SIGINT/SIGTERM; its reason names the signal). */
  interrupt?: AbortSignal;
  /** Abandon in-flight requests too (grace period over, or a second signal). */
  abortInFlight?: AbortSignal;
  onThrottle?: (service: string, concurrency: number) => void;
  dispatcher?: Dispatcher;
  now?: () => Date;
  onResult?: (result: CaseResult) => void;
  /** Called once the plan is known, before anything is sent. */
  onPlan?: (info: { runDir: string; planned: number; alreadyDone: number }) => void;
  /** File reporters to write besides report.json (html, junit, markdown); default all. */
  reporters?: ReadonlySet<string>;
}

export interface RunSuitesResult {
  report: Report;
  runDir: string;
  /** Baseline files written by `update_baselines`. */
  baselinesWritten: string[];
  /** Why update_baselines wrote nothing, when it did not. */
  baselinesSkipped: string | null;
  /** Report files written into the run folder, report.json first. */
  files: string[];
  /** Journal lines that could not be read back on resume (a torn last line). */
  journalSkipped: number;
}

/**
 * The main job: plan → pre-flight → send (journaling each result) → diff against
 * baselines → report.json. The CLI's `run` is a thin wrapper over this.
 */
export async function runSuites(options: RunSuitesOptions): Promise<RunSuitesResult> {
  const now = options.now ?? (() => new Date());
  const startedAt = options.meta.started_at ?? now().toISOString();
  const id = options.meta.id ?? newRunId(new Date(startedAt));
  const meta: RunMeta = { ...options.meta, id, started_at: startedAt };
  const runDir = options.resumeDir ?? join(options.reportDir, id);

  const plan = planRun(options.suites, meta.plan);
  const used = new Set(plan.map((p) => p.suite));
  const plannedSuites = options.suites.filter((s) => used.has(s));
  // Read before the first request: a corrupt baseline is an input error that costs nothing.
  const baselines = await loadBaselines(options.baselineDir, plannedSuites);
  const services = checkServices(plan, options.config, meta.plan.service);
  // Pre-flight every service before the first request: a missing key must cost nothing.
  const keys = new Map(
    services.map((name) => [name, resolveApiKey(options.config.services[name]!, options.env)]),
  );
  const redactor = createRedactor([...keys.values()]);
  const redactText = (text: string) => redactor.redact(text).text;

  await mkdir(runDir, { recursive: true });
  if (!options.resumeDir) await writeRunMeta(runDir, meta);
  const journalFile = join(runDir, 'results.jsonl');
  const previous = options.resumeDir ? await readJournal(journalFile) : { results: [], skipped: 0 };
  // An auth stop's failing sample is sent again on resume: the key was the problem, not the case.
  const done = new Map(
    previous.results.filter((r) => !(r.error && isAccessStop(r.error))).map((r) => [r.key, r]),
  );
  const todo = plan.filter((p) => !done.has(p.key));
  options.onPlan?.({ runDir, planned: plan.length, alreadyDone: plan.length - todo.length });

  const clients = new Map<string, ServiceClient>();
  for (const name of services) {
    const service = options.config.services[name]!;
    clients.set(
      name,
      createServiceClient({
        service,
        apiKey: keys.get(name)!,
        simDirectives: isLoopbackUrl(service.base_url),
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      }),
    );
  }
  const journal = openJournal(journalFile);
  const loadFinishing = prefetch(finishingModules);
  let outcome: Awaited<ReturnType<typeof executePlan>>;
  try {
    outcome = await executePlan({
      plan: todo,
      ...(options.config.prices ? { prices: options.config.prices } : {}),
      baselineContent: (suite, caseId) => baselines.get(suite)?.baseline?.cases[caseId]?.content ?? null,
      adaptive: {
        plan,
        done: [...done.values()],
        baselineSamples: (suite, caseId) => samplesOf(baselines.get(suite)?.baseline?.cases[caseId]),
      },
      clients,
      ...(meta.concurrency ? { concurrency: meta.concurrency } : {}),
      journal,
      redact: (text) => redactor.redact(text),
      ...(options.interrupt ? { interrupt: options.interrupt } : {}),
      ...(options.abortInFlight ? { abortInFlight: options.abortInFlight } : {}),
      now,
      onResult: (result) => {
        void loadFinishing();
        options.onResult?.(result);
      },
      ...(options.onThrottle ? { onThrottle: options.onThrottle } : {}),
    });
  } finally {
    journal.close();
    await Promise.all([...clients.values()].map((c) => c.close()));
  }

  const [{ buildReport }, { writeReportFiles }, { updateLatest }] = await loadFinishing();
  const results = inPlanOrder(plan, [...done.values(), ...outcome.results]);
  const report = buildReport({
    run: {
      id,
      started_at: startedAt,
      finished_at: now().toISOString(),
      command: meta.command,
      driftcheck_version: options.version,
      sim: meta.sim,
      candidate_model: meta.plan.model ?? null,
      shard: meta.plan.shard ?? null,
    },
    stop: outcome.stop,
    suites: plannedSuites,
    results,
    baselines,
    complete: !meta.plan.filter && !meta.plan.shard,
    diff: { candidate: Boolean(meta.plan.model) },
  });
  const files = await writeReportFiles(runDir, report, options.reporters ?? ALL_FILE_REPORTERS, redactText, {
    baselines,
  });
  await updateLatest(options.reportDir, id);

  let baselinesWritten: string[] = [];
  let baselinesSkipped: string | null = null;
  if (meta.update_baselines) {
    if (report.run.status !== 'completed')
      baselinesSkipped = `the run is ${report.run.status}; finish it with --resume first`;
    else baselinesWritten = await acceptResults(options.baselineDir, report, plannedSuites, baselines);
  }
  return { report, runDir, files, baselinesWritten, baselinesSkipped, journalSkipped: previous.skipped };
}

/**
 * Writes one baseline per suite from a finished report (`--update-baselines` and
 * `baseline accept`). `selection` limits it to some case ids per suite.
 */
export async function acceptResults(
  baselineDir: string,
  report: Report,
  suites: readonly { suite: string }[],
  baselines: ReadonlyMap<string, { baseline: Baseline | null }>,
  selection?: ReadonlyMap<string, string[]>,
): Promise<string[]> {
  const { baselineFromResults } = await import('../baseline/build.js');
  const written: string[] = [];
  const sent = new Map<string, CaseResult[]>();
  for (const c of report.cases) {
    if (c.status === 'not_run') continue;
    const list = sent.get(c.suite);
    if (list) list.push(c);
    else sent.set(c.suite, [c]);
  }
  for (const { suite } of suites) {
    const info = report.suites.find((s) => s.suite === suite);
    const results = sent.get(suite) ?? [];
    const only = selection?.get(suite);
    if (!info || results.length === 0 || (selection && !only)) continue;
    const baseline = baselineFromResults({
      suite,
      service: info.service,
      model: info.requested_model,
      run_id: report.run.id,
      results,
      previous: baselines.get(suite)?.baseline ?? null,
      ...(only ? { only } : {}),
    });
    written.push(await writeBaseline(baselineDir, baseline));
  }
  return written;
}

/**
 * Reads every planned suite's baseline. One file at a time: a file's text is garbage once
 * parsed, and reading them all at once held every text with every parse (100 baselines of
 * 1,000 cases, 45 MB of text: the loading phase's peak RSS went from 216–218 to 166–169 MB).
 */
export async function loadBaselines(
  baselineDir: string,
  suites: readonly { suite: string }[],
): Promise<Map<string, { baseline: Baseline | null; path: string }>> {
  const loaded = new Map<string, { baseline: Baseline | null; path: string }>();
  for (const s of suites) {
    loaded.set(s.suite, {
      baseline: await readBaseline(baselineDir, s.suite),
      path: baselinePath(baselineDir, s.suite),
    });
  }
  return loaded;
}

/** Every service the plan will call (suites' and judges'), all configured — or an input error. */
function checkServices(plan: readonly PlannedCase[], config: Config, override?: string): string[] {
  const suites = [...new Set(plan.map((p) => p.suite))];
  const diagnostics = unconfiguredServices(suites, config, override);
  if (diagnostics.length) throw new InputError(diagnostics);
  const judges = suites.flatMap((suite) => judgeTargets(suite).map((t) => t.service));
  return [...new Set([...plan.map((p) => p.service), ...judges])];
}

/**
 * Results in the order an unsharded, uninterrupted run would list them: cases in plan
 * order, each case's samples by repeat (adaptive samples beyond the plan included).
 * Planned samples go straight to their slot in the plan (keys are the plan's own strings,
 * no new ones: at 100,000 cases the sort keys were 20 MB); only adaptive samples beyond
 * the plan need sorting in.
 */
function inPlanOrder(plan: readonly PlannedCase[], results: readonly CaseResult[]): CaseResult[] {
  const slotOf = new Map<string, number>();
  for (let i = 0; i < plan.length; i++) slotOf.set(plan[i]!.key, i);
  const slots: (CaseResult | undefined)[] = new Array<CaseResult | undefined>(plan.length);
  const extras = new Map<string, CaseResult>();
  for (const r of results) {
    const slot = slotOf.get(r.key);
    // A later result for the same key (a resumed sample sent again) replaces the earlier one.
    if (slot === undefined) extras.set(r.key, r);
    else slots[slot] = r;
  }
  const planned = slots.filter((r): r is CaseResult => r !== undefined);
  if (extras.size === 0) return planned;
  const rank = new Map<string, number>();
  for (const p of plan) {
    const id = `${p.suite.suite}/${p.case.id}`;
    if (!rank.has(id)) rank.set(id, rank.size);
  }
  const keyed = [...planned, ...extras.values()].map((r) => ({
    r,
    at: rank.get(`${r.suite}/${r.case}`) ?? 0,
  }));
  keyed.sort((a, b) => a.at - b.at || a.r.repeat - b.r.repeat);
  return keyed.map((k) => k.r);
}

/** A baseline case's samples ({0, 0} when it has none — adaptive sampling then runs to the cap). */
function samplesOf(entry: BaselineCase | undefined): { pass: number; total: number } {
  if (!entry) return { pass: 0, total: 0 };
  return entry.samples ?? { pass: entry.status === 'pass' ? 1 : 0, total: 1 };
}
