import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProjectPaths } from '../../src/cli/project.js';
import { type PlanReaders, planRun, type RunPlan } from '../../src/cli/run-plan.js';
import { resolveRun } from '../../src/cli/run-request.js';
import { ComparedSide } from '../../src/compare/side.js';
import { defaultConfig } from '../../src/config/defaults.js';
import type { Config } from '../../src/config/types.js';
import type { CatalogModel } from '../../src/core/catalog.js';
import type { CandidatesFile } from '../../src/run/candidates-file.js';
import type { RunMeta } from '../../src/run/meta.js';
import { parseSuite } from '../../src/suite/parse.js';
import type { Suite } from '../../src/suite/types.js';
import { UsageError } from '../../src/util/errors.js';

// planRun in-process: every read goes through fake readers (suites parsed from text, a fixed
// clock, model lists in memory), so what the plan decides is seen without a file or a service.
const CWD = '/proj';
const project: ProjectPaths = {
  root: CWD,
  dir: (given, fallback) => resolve(CWD, given ?? fallback),
  suites: () => resolve(CWD, 'suites'),
  history: (given, config) =>
    given !== undefined ? resolve(CWD, given) : config?.history ? resolve(CWD, config.history.dir) : null,
};
const request = (...args: string[]) => resolveRun(args, {}, CWD, () => project);

function suite(text: string): Suite {
  const parsed = parseSuite(text, 'suite.yaml');
  if (!parsed.value) throw new Error(JSON.stringify(parsed.errors));
  return parsed.value;
}
const cases = (...ids: string[]) =>
  ids.map((id) => `  - id: ${id}\n    prompt: Say ${id}.\n    expect:\n      - contains: ${id}\n`).join('');
const ROUTER = suite(`suite: support\nservice: router\nmodel: a/base\ncases:\n${cases('c1', 'c2', 'c3')}`);
const DIRECT = suite(`suite: plain\nservice: direct\nmodel: kimi-k2\ncases:\n${cases('d1', 'd2')}`);

/** The router lists these models, priced per token; the direct service's list cannot be read. */
const ROUTER_MODELS: CatalogModel[] = ['a/base', 'a/one', 'a/two'].map((id) => ({
  id,
  alias_target: null,
  pricing: { prompt: 0.000001, completion: 0.000002 },
}));

interface Fakes extends PlanReaders {
  told: string[];
  started: (dir: string) => boolean;
  servicesStarted: { sim: boolean }[];
  loaded: { paths: readonly string[]; holdAll: boolean }[];
}

function readers(
  over: Partial<PlanReaders> = {},
  given: { baselines?: string[]; config?: Config } = {},
): Fakes {
  const told: string[] = [];
  const servicesStarted: { sim: boolean }[] = [];
  const loaded: Fakes['loaded'] = [];
  const config = given.config ?? defaultConfig({});
  const fakes: Fakes = {
    told,
    servicesStarted,
    loaded,
    resumeTarget: async () => {
      throw new Error('not a resume');
    },
    comparison: async () => null,
    runMeta: async () => {
      throw new Error('no run.json');
    },
    runStatus: async () => null,
    started: () => false,
    failedCases: async () => {
      throw new Error('not --failed');
    },
    config: async () => config,
    suites: async (paths, options) => {
      loaded.push({ paths, holdAll: options.holdAll });
      return { suites: [ROUTER, DIRECT], casesOf: (s) => s.cases };
    },
    hasBaseline: (name) => (given.baselines ?? ['support', 'plain']).includes(name),
    services: async (given, sim) => {
      servicesStarted.push({ sim });
      return {
        config: given,
        env: {},
        catalogs: async (services) =>
          new Map(services.map((s) => [s.name, s.kind === 'router' ? ROUTER_MODELS : null])),
        providerLists: { providers: async () => null, endpoints: async () => null },
      };
    },
    referenceRun: async () => {
      throw new Error('no reference');
    },
    now: () => new Date('2026-03-01T04:00:00.000Z'),
    tell: (line) => void told.push(line),
    ...over,
  };
  return fakes;
}

const one = (plan: RunPlan) => {
  if (!plan.run) throw new Error('expected one run');
  return plan.run;
};

describe('planRun: what a run command will send, decided before anything is', () => {
  it('a nightly run: the project’s suites, the selection counted once, its meta as run.json keeps it', async () => {
    const fakes = readers();
    const plan = await planRun(request('--repeat', '2', '--filter', 'support/*'), fakes);
    const run = one(plan);
    expect(run.meta).toEqual({
      command: ['driftcheck', 'run', '--repeat', '2', '--filter', 'support/*'],
      paths: ['/proj/suites'],
      config_file: null,
      allow_alias: false,
      sim: false,
      plan: { repeat: 2, filter: 'support/*' },
      concurrency: null,
      update_baselines: false,
      max_cost: null,
    });
    expect(run.resumeDir).toBeUndefined();
    expect(run.selection!.map((s) => [s.suite.suite, s.cases, s.samples])).toEqual([['support', 3, 6]]);
    expect(fakes.loaded).toEqual([{ paths: ['/proj/suites'], holdAll: false }]);
    expect(fakes.told).toEqual([]);
    expect(plan.historyDir).toBeNull();
    expect(plan.costCap).toBeNull();
    expect(plan.reportDir).toBe('/proj/reports');
  });

  it('says which suites have no baseline; --require-baselines refuses before a service is started', async () => {
    const warned = readers({}, { baselines: ['support'] });
    await planRun(request('--sim'), warned);
    expect(warned.told).toEqual([
      expect.stringMatching(/^driftcheck: warning: suite plain has no baseline yet: only its expectations/),
    ]);
    expect(warned.servicesStarted).toEqual([{ sim: true }]);

    const refused = readers({}, { baselines: ['support'] });
    await expect(planRun(request('--sim', '--require-baselines'), refused)).rejects.toThrow(
      /--require-baselines: no baseline for plain in baselines/,
    );
    expect(refused.servicesStarted).toEqual([]);
  });

  it('--model: the candidate runs the suites its service lists it on; the others are skipped and said', async () => {
    const fakes = readers();
    const run = one(await planRun(request('--model', 'a/one'), fakes));
    expect(run.meta.plan).toEqual({
      model: 'a/one',
      skip: [
        { suite: 'plain', reason: expect.stringMatching(/an author\/model id.* the id's shape decided/) },
      ],
    });
    expect(run.selection!.map((s) => s.suite.suite)).toEqual(['support']);
    expect(fakes.told.join('')).toMatch(/candidate a\/one: skipped suite plain: /);
  });

  it('--models: a comparison named by run ids taken from the clock, one run per candidate', async () => {
    const plan = await planRun(request('--models', 'a/one,a/two'), readers());
    const { comparison } = plan;
    expect(comparison).toBeDefined();
    const ids = comparison!.file.candidates.map((c) => c.run_id);
    expect(ids).toHaveLength(2);
    expect(ids.every((id) => id.startsWith('20260301T040000'))).toBe(true);
    expect(comparison!.dir).toBe(`/proj/reports/compare-${ids[0]}-${ids[1]}`);
    expect(comparison!.isNew).toBe(true);
    expect(comparison!.file.meta.plan).toEqual({});
    expect(
      comparison!.candidates.map((c) => [c.entry.label, c.cases, c.run?.meta.id, c.run?.meta.comparison]),
    ).toEqual([
      ['a/one', 3, ids[0], `compare-${ids[0]}-${ids[1]}`],
      ['a/two', 3, ids[1], `compare-${ids[0]}-${ids[1]}`],
    ]);
    expect(comparison!.candidates[0]!.run!.meta.plan).toMatchObject({ model: 'a/one' });
  });

  it('a cost cap: prices from the router’s list, the candidates estimated together and refused over it', async () => {
    const capped = await planRun(request('--models', 'a/one,a/two', '--max-cost', '100'), readers());
    expect(capped.costCap).toMatchObject({
      cap: { usd: 100, source: '--max-cost' },
      ignoreEstimate: true,
      spentBefore: 0,
      listPrices: { 'a/one': { prompt: 1, completion: 2 } },
    });
    const fakes = readers();
    await expect(
      planRun(request('--models', 'a/one,a/two', '--max-cost', '0.000001'), fakes),
    ).rejects.toThrow(/the 2 candidates' runs/);
    // Every case is held for the estimate.
    expect(fakes.loaded[0]!.holdAll).toBe(true);
  });

  it('the config’s max_cost caps the run, and a new run keeps it in run.json', async () => {
    const config = { ...defaultConfig({}), max_cost: 3, history: { dir: 'nights' } };
    const plan = await planRun(request(), readers({}, { config }));
    expect(one(plan).meta.max_cost).toEqual({ usd: 3, source: 'max_cost' });
    expect(plan.costCap?.ignoreEstimate).toBe(false);
    expect(plan.historyDir).toBe('/proj/nights');
  });

  it('--resume: the run as run.json planned it; a --bail given now holds for this session', async () => {
    const stored: RunMeta = {
      id: '20260228T040000000Z-abcd',
      started_at: '2026-02-28T04:00:00.000Z',
      command: ['driftcheck', 'run', '--repeat', '3'],
      paths: ['suites'],
      config_file: null,
      allow_alias: false,
      sim: true,
      plan: { repeat: 3 },
      concurrency: null,
      update_baselines: false,
      max_cost: null,
    };
    const fakes = readers({
      resumeTarget: async (paths, reportDir) => `${reportDir}/${paths[0] ?? 'newest'}`,
      runMeta: async () => structuredClone(stored),
    });
    const run = one(await planRun(request('--resume', 'r1', '--bail', '4'), fakes));
    expect(run.resumeDir).toBe('/proj/reports/r1');
    expect(run.meta).toEqual({ ...stored, bail: 4 });
    expect(run.selection!.map((s) => s.samples)).toEqual([9, 6]);
    expect(fakes.servicesStarted).toEqual([{ sim: true }]);
  });

  it('a comparison resumed: done runs compared as they are, started ones resumed, the rest made', async () => {
    const meta = {
      command: ['driftcheck', 'run', '--models', 'a/one,a/two,a/base'],
      paths: ['suites'],
      config_file: null,
      allow_alias: false,
      sim: false,
      plan: {},
      concurrency: null,
      update_baselines: false,
      max_cost: null,
    };
    const file: CandidatesFile = {
      version: 1,
      flag: '--models',
      meta,
      reference: null,
      candidates: ['a/one', 'a/two', 'a/base'].map((model, i) => ({
        label: model,
        run_id: `r${i}`,
        candidate: { model },
        plan: { model },
        skipped: [],
      })),
    };
    const dir = '/proj/elsewhere/reports/compare-r0-r2';
    const fakes = readers({
      resumeTarget: async () => dir,
      comparison: async () => ({ dir, file }),
      runStatus: async (runDir) => (runDir.endsWith('/r0') ? 'completed' : null),
      started: (runDir) => runDir.endsWith('/r1'),
      runMeta: async (runDir) => ({
        ...meta,
        id: 'r1',
        started_at: 'then',
        plan: { model: 'a/two' },
        dir: runDir,
      }),
    });
    const plan = await planRun(request('--resume', 'reports/compare-r0-r2'), fakes);
    expect(plan.reportDir).toBe('/proj/elsewhere/reports');
    const { candidates, isNew } = plan.comparison!;
    expect(isNew).toBe(false);
    expect(candidates[0]!.run).toBeNull();
    expect(candidates[1]!.run).toMatchObject({ resumeDir: '/proj/elsewhere/reports/r1', selection: null });
    expect(candidates[2]!.run!.meta).toMatchObject({
      id: 'r2',
      plan: { model: 'a/base' },
      comparison: 'compare-r0-r2',
    });
    // As candidates.json planned them: no suite skipped.
    expect(candidates.map((c) => c.cases)).toEqual([5, 5, 5]);
  });

  it('--failed: the failed cases of that run, on its suites and candidate, said before the run', async () => {
    const before: RunMeta = {
      id: 'r0',
      started_at: 'then',
      command: [],
      paths: ['suites/support.yaml'],
      config_file: 'ci.config.yaml',
      allow_alias: false,
      sim: true,
      plan: { model: 'a/one', filter: 'support/*' },
      concurrency: 4,
      update_baselines: false,
    };
    const asked: string[] = [];
    const fakes = readers({
      failedCases: async (dir, shown) => {
        asked.push(dir, shown);
        return {
          runId: 'r0',
          cases: ['support/c1', 'support/c3', 'support/gone'],
          counts: { failed: 2, errored: 0, regressed: 1, of: 9 },
          meta: before,
        };
      },
    });
    const run = one(await planRun(request('--failed', 'reports/r0'), fakes));
    expect(asked).toEqual(['/proj/reports/r0', 'reports/r0']);
    expect(run.meta).toMatchObject({
      paths: ['suites/support.yaml'],
      config_file: 'ci.config.yaml',
      sim: true,
      plan: { model: 'a/one', cases: ['support/c1', 'support/c3', 'support/gone'] },
      concurrency: null,
    });
    expect(run.selection!.map((s) => [s.suite.suite, s.cases])).toEqual([['support', 2]]);
    expect(fakes.told).toEqual([
      expect.stringMatching(
        /--failed reports\/r0: running again the 3 cases of run r0 .*\(2 failed, 1 regressed/,
      ),
      'driftcheck: --failed: 1 of them no longer in the suites\n',
    ]);
  });

  it('--reference: a stored run that ran none of the candidates’ cases is refused; nothing is sent', async () => {
    const fakes = readers({ referenceRun: async (dir) => new ComparedSide(dir, 0) });
    const error = await planRun(
      request('--models', 'a/one,a/two', '--reference', 'reports/other'),
      fakes,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(String(error)).toMatch(/--reference: run other ran none of the cases the candidates would run/);
  });

  it('refuses a candidate that fits no suite, naming why; nothing is counted for it', async () => {
    await expect(
      planRun(request('--model', 'kimi-k2-turbo', '--filter', 'support/*'), readers()),
    ).rejects.toThrow(/--model: nothing was sent\nkimi-k2-turbo fits no suite of the selection/);
  });
});
