import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulateServices } from '../../src/cli/sim-setup.js';
import { defaultConfig } from '../../src/config/defaults.js';
import { InputError } from '../../src/util/errors.js';
import { loadReport } from '../../src/stored/report/read.js';
import { planCases, planStream, selectionOf, selectionsOf } from '../../src/run/plan.js';
import { type PlanOptions } from '../../src/stored/journal/records.js';
import { runSuites } from '../../src/cli/run-suites.js';
import { simRequestHeaders } from '../../src/sim/protocol.js';
import { loadSuites, readSuiteCases } from '../../src/suite/load.js';
import type { Suite } from '../../src/suite/types.js';
import { REPO } from '../helpers/cli.js';

// A run over suites loaded without their cases (what `driftcheck run` does when its cases
// are more than it holds, 10,000, and always for tables): each suite is read again when the
// run reaches it. It must plan, send and report exactly what a run over held suites does.
describe('a run that reads each suite when it reaches it', () => {
  let dir: string;
  let sim: Awaited<ReturnType<typeof simulateServices>>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-lazy-'));
    await cp(join(REPO, 'suites/demo'), join(dir, 'suites'), { recursive: true });
    sim = await simulateServices(defaultConfig({}), {});
  });
  afterAll(async () => {
    await sim.simulator.close();
    await rm(dir, { recursive: true, force: true });
  });

  const load = (cases: 'all' | 'none') => loadSuites([join(dir, 'suites')], { cwd: dir, cases });
  const casesOf = (suite: Suite) =>
    suite.cases.length === 0 ? readSuiteCases(suite, { cwd: dir }) : suite.cases;
  const meta = (plan: PlanOptions) => ({
    command: ['driftcheck', 'run', '--sim'],
    paths: ['suites'],
    config_file: null,
    allow_alias: false,
    sim: true,
    plan,
    // One at a time: which sample of a repeated case answers first is then the same in both runs.
    concurrency: 1,
    update_baselines: false,
  });
  const run = (
    suites: Suite[],
    plan: PlanOptions,
    reportDir: string,
    on = sim,
    more: Pick<Parameters<typeof runSuites>[0], 'interrupt' | 'onResult'> = {},
  ) =>
    runSuites({
      ...more,
      config: on.config,
      suites,
      casesOf,
      cwd: dir,
      env: on.env,
      reportDir: join(dir, reportDir),
      baselineDir: join(REPO, 'baselines'),
      version: 'test',
      reporters: new Set(['json']),
      requestHeaders: simRequestHeaders,
      meta: meta(plan),
    });

  it('plans the same cases, ordinals and samples as the held suites, under a filter and a shard', async () => {
    const held = await load('all');
    const lazy = await load('none');
    expect(lazy.every((s) => s.cases.length === 0)).toBe(true);
    for (const plan of [{}, { shard: { index: 2, total: 3 } }, { filter: 'support-demo/*' }, { repeat: 3 }]) {
      const want = planCases(held, plan).map((g) => [g.suite.suite, g.case.id, g.ordinal, g.repeats]);
      const got: unknown[] = [];
      for await (const g of planStream(lazy, plan, casesOf))
        got.push([g.suite.suite, g.case.id, g.ordinal, g.repeats]);
      expect(got).toEqual(want);
      // Counted without reading the suites when nothing but counts is asked.
      const selection = await selectionOf(lazy, plan, casesOf);
      expect(selection.reduce((n, s) => n + s.samples, 0)).toBe(
        want.reduce((n, w) => n + (w[3] as number), 0),
      );
    }
  });

  it("counts several plans (a comparison's candidates) as each alone, reading each suite once", async () => {
    const lazy = await load('none');
    const reads = new Map<string, number>();
    const counted = (suite: Suite) => {
      reads.set(suite.suite, (reads.get(suite.suite) ?? 0) + 1);
      return casesOf(suite);
    };
    const [first, second] = lazy.map((s) => s.suite);
    const skip = (suite: string) => [{ suite, reason: 'not listed' }];
    const plans: PlanOptions[] = [
      { filter: 'support-demo/*', model: 'a/one' },
      { shard: { index: 2, total: 3 }, skip: skip(first!) },
      { shard: { index: 1, total: 2 }, skip: skip(second!), repeat: 3 },
      { model: 'b/two' },
    ];
    const alone = [];
    for (const plan of plans) alone.push(await selectionOf(lazy, plan, casesOf));
    const together = await selectionsOf(lazy, plans, counted);
    const shape = (selection: Awaited<ReturnType<typeof selectionOf>>) =>
      selection.map((s) => [s.suite.suite, s.start, s.cases, s.samples]);
    expect(together.map(shape)).toEqual(alone.map(shape));
    // The skips and shards make the candidates' selections differ.
    expect(new Set(together.map((s) => JSON.stringify(shape(s)))).size).toBe(plans.length);
    expect([...reads.values()].every((n) => n === 1)).toBe(true);
    expect(reads.size).toBe(lazy.length);
  });

  it('a run given the selection its caller counted for its plan reads no suite again to count it', async () => {
    const lazy = await load('none');
    let reads = 0;
    const counted = (suite: Suite) => {
      reads++;
      return casesOf(suite);
    };
    const plan: PlanOptions = { filter: 'support-demo/*' };
    const runWith = async (selection: Parameters<typeof runSuites>[0]['selection'], to: string) => {
      reads = 0;
      await runSuites({
        config: sim.config,
        suites: lazy,
        casesOf: counted,
        cwd: dir,
        env: sim.env,
        reportDir: join(dir, to),
        baselineDir: join(REPO, 'baselines'),
        version: 'test',
        reporters: new Set(['json']),
        requestHeaders: simRequestHeaders,
        meta: { ...meta(plan), plan },
        ...(selection ? { selection } : {}),
      });
      return reads;
    };
    const alone = await runWith(undefined, 'count-alone');
    reads = 0;
    const suites = await selectionOf(lazy, plan, counted);
    const forCounting = reads;
    // A filter must see every suite's ids: each is read to count it.
    expect(forCounting).toBe(lazy.length);
    expect(await runWith({ plan, suites }, 'count-given')).toBe(alone - forCounting);
    // Counted for another plan (an equal one is not the same): counted again.
    expect(await runWith({ plan: { ...plan }, suites }, 'count-other')).toBe(alone);
  });

  it('reports every case as a run over held suites does, messages of table rows included', async () => {
    const plan = { shard: { index: 1, total: 2 } };
    // Each on a simulator of its own with the same seed: its coins (a flaky case's) and its
    // faults (they follow how often it was asked) are then the same for both.
    const fresh = async (suites: Suite[], to: string) => {
      const own = await simulateServices(defaultConfig({}), { DRIFTCHECK_SIM_SEED: '19' });
      try {
        return await loadReport((await run(suites, plan, to, own)).runDir);
      } finally {
        await own.simulator.close();
      }
    };
    const a = await fresh(await load('all'), 'held');
    const b = await fresh(await load('none'), 'lazy');
    const shape = (r: typeof a) =>
      r.cases.map((c) => ({
        id: c.id,
        status: c.status,
        messages: c.messages,
        drift: c.drift.map((d) => d.kind),
      }));
    expect(shape(b)).toEqual(shape(a));
    expect(b.summary).toEqual(a.summary);
    // The table cases' prompts are there, made again from the table.
    const tableCases = b.cases.filter((c) => c.suite === 'table-demo');
    expect(tableCases.length).toBeGreaterThan(0);
    for (const c of tableCases) expect(c.messages.length).toBeGreaterThan(0);
  });

  it('journals each suite’s plan before that suite’s first sample, not every plan first', async () => {
    const { runDir } = await run(await load('none'), {}, 'order');
    const lines = (await readFile(join(runDir, 'results.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type?: string; suite?: string });
    const planned = new Set<string>();
    for (const line of lines) {
      if (line.type === 'plan') planned.add(line.suite!);
      else if (line.type === undefined) expect(planned.has(line.suite!)).toBe(true);
    }
    expect(planned.size).toBeGreaterThan(1);
    // Some sample is journaled before the last plan: the plans were not all written first.
    const firstSample = lines.findIndex((l) => l.type === undefined);
    const lastPlan = lines.findLastIndex((l) => l.type === 'plan');
    expect(firstSample).toBeGreaterThan(0);
    expect(firstSample).toBeLessThan(lastPlan);
  });

  it('an interrupted run still plans every suite it did not reach, so its report lists their cases as not run', async () => {
    const interrupt = new AbortController();
    let results = 0;
    const suites = await load('none');
    const { runDir } = await run(suites, {}, 'interrupted', sim, {
      interrupt: interrupt.signal,
      onResult: () => {
        if (++results === 2) interrupt.abort('SIGINT');
      },
    });
    const report = await loadReport(runDir);
    const all = planCases(await load('all'), {});
    expect(report.run.status).toBe('interrupted');
    expect(report.cases.map((c) => c.id)).toEqual(all.map((g) => `${g.suite.suite}/${g.case.id}`));
    // The cases not run are exactly those the journal holds no sample of.
    const sampled = new Set(
      (await readFile(join(runDir, 'results.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type?: string; suite?: string; case?: string })
        .filter((l) => l.type === undefined)
        .map((l) => `${l.suite}/${l.case}`),
    );
    const notRun = report.cases.filter((c) => c.status === 'not_run').map((c) => c.id);
    expect(notRun).toEqual(all.map((g) => `${g.suite.suite}/${g.case.id}`).filter((id) => !sampled.has(id)));
    expect(report.summary.not_run).toBe(notRun.length);
    expect(report.summary.not_run).toBeGreaterThan(0);
    expect(report.summary.not_run).toBeLessThan(all.length);
  });

  it('a suite loaded without its cases and no way given to read them is refused, not run empty', async () => {
    const suites = await load('none');
    const error = await runSuites({
      config: sim.config,
      suites,
      env: sim.env,
      reportDir: join(dir, 'no-cases-of'),
      baselineDir: join(REPO, 'baselines'),
      version: 'test',
      reporters: new Set(['json']),
      meta: meta({}),
    }).catch((e: unknown) => e);
    expect(String(error)).toContain(`was loaded without its cases (loadSuites cases: 'none')`);
  });

  it('a suite file changed after it was checked stops the run with an input error naming it; what ran is kept', async () => {
    const suites = await load('none');
    const last = suites.at(-1)!;
    const text = await readFile(last.source!.path, 'utf8');
    await writeFile(last.source!.path, `${text}\n# edited\n`);
    try {
      const error = await run(suites, {}, 'changed').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).diagnostics[0]?.message).toContain(
        `suite file ${last.file} of suite ${last.suite} changed since the run was planned`,
      );
      // What was sent before the run reached it is journaled; nothing of the changed suite.
      const [runId] = await readdir(join(dir, 'changed'));
      const samples = (await readFile(join(dir, 'changed', runId!, 'results.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type?: string; suite: string })
        .filter((l) => l.type === undefined);
      expect(samples.length).toBeGreaterThan(0);
      expect(samples.filter((l) => l.suite === last.suite)).toEqual([]);
    } finally {
      await writeFile(last.source!.path, text);
    }
  });
});
