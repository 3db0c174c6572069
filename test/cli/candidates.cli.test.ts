import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/stored/report/types.js';
import {
  type CliResult,
  copyFromRepo,
  makeProject,
  readReport,
  readSamples,
  runDirFrom,
} from '../helpers/cli.js';
import { runMain, startSim } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';

type Project = Awaited<ReturnType<typeof makeProject>>;

/** Every run folder a `run` printed, in order (`--models`, `--providers` make one per candidate). */
function runDirsFrom(result: CliResult, cwd: string): string[] {
  return [...result.stderr.matchAll(/report: (.+)\/report\.json/g)].map((m) => join(cwd, m[1]!));
}

async function reportsOf(result: CliResult, cwd: string): Promise<Report[]> {
  return Promise.all(runDirsFrom(result, cwd).map(readReport));
}

describe('candidates run the suites of the service they belong to (the demo, on the embedded simulator)', () => {
  let project: Project;
  beforeAll(async () => {
    project = await makeProject();
    await copyFromRepo(project.dir, 'suites/demo', 'baselines');
  });
  afterAll(() => project.cleanup());

  it('--models with two router ids runs the router suite under both, and skips and lists the direct suite', async () => {
    const run = await runMain(
      [
        'run',
        '--sim',
        'suites/demo',
        '--models',
        'openai/gpt-4o-mini,anthropic/claude-sonnet-4.5',
        '--reporter',
        'console,json',
      ],
      // Seeded: the demo's repeated tool case draws its faults afresh otherwise, and its pass
      // rate under a candidate then lands on either side of the exact test's line.
      { cwd: project.dir, env: { DRIFTCHECK_SIM_SEED: '7' } },
    );
    // The demo's router suite still fails on its faults tonight; nothing is a configuration error.
    expect(run.code, run.stderr).toBe(1);
    const dirs = runDirsFrom(run, project.dir);
    expect(dirs).toHaveLength(2);
    const reports = await Promise.all(dirs.map(readReport));
    for (const [i, report] of reports.entries()) {
      expect(reportSchemaErrors(report)).toEqual([]);
      expect(report.run.candidate_model).toBe(['openai/gpt-4o-mini', 'anthropic/claude-sonnet-4.5'][i]);
      expect(report.run.provenance.kind).toBe('candidate');
      expect(report.run.skipped_suites).toEqual([
        {
          suite: 'direct-demo',
          reason: 'the direct service direct does not list the model in its GET /models',
        },
      ]);
      expect(report.cases.map((c) => c.suite)).toEqual([
        ...Array(4).fill('agent-demo'),
        ...Array(7).fill('streaming-demo'),
        ...Array(5).fill('support-demo'),
        ...Array(6).fill('table-demo'),
        ...Array(3).fill('tools-demo'),
      ]);
      expect(report.cases.filter((c) => c.error?.kind === 'invalid_model')).toEqual([]);
      // Nothing was sent to the direct service.
      expect((await readSamples(dirs[i]!)).filter((s) => s.suite === 'direct-demo')).toEqual([]);
    }
    // Listed in each run's console summary, and under the comparison.
    expect(
      run.stdout.match(/^skipped suite direct-demo: the direct service direct does not list/gm),
    ).toHaveLength(2);
    expect(run.stdout).toMatch(/│ case\s+│ openai\/gpt-4o-mini\s+│ anthropic\/claude-sonnet-4\.5\s+│/);
    expect(run.stdout).toMatch(/passed \/ total\s+│ 16 \/ 25\s+│ 16 \/ 25\s+│/);
    expect(run.stdout).toContain(
      'skipped under every candidate: suite direct-demo (the direct service direct does not list the model in its GET /models)',
    );
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/invalid_model|0 of 9 case/);
  });

  it('a direct model id as candidate runs the direct suite only', async () => {
    const run = await runMain(
      ['run', '--sim', 'suites/demo', '--model', 'kimi-k2-turbo-preview', '--reporter', 'json'],
      {
        cwd: project.dir,
      },
    );
    // release-notes is cut at max_tokens tonight, whatever the model.
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(
      'candidate kimi-k2-turbo-preview: skipped suite support-demo: the router service router does not list the model in its GET /models',
    );
    const report = await readReport(runDirFrom(run, project.dir));
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(report.run.skipped_suites?.map((s) => s.suite)).toEqual([
      'agent-demo',
      'streaming-demo',
      'support-demo',
      'table-demo',
      'tools-demo',
    ]);
    expect(report.cases.map((c) => [c.suite, c.model])).toEqual(
      Array(4).fill(['direct-demo', 'kimi-k2-turbo-preview']),
    );
    expect(report.cases.filter((c) => c.status === 'fail').map((c) => c.case)).toEqual(['release-notes']);
  });
});

describe('a candidate that fits no suite of the selection', () => {
  const ROUTER_KEY = `sk-or-v1-${'ab12'.repeat(16)}`;
  const DIRECT_KEY = `sk-${'0123456789abcdef'.repeat(3)}`;
  let sim: Awaited<ReturnType<typeof startSim>>;
  let project: Project;
  const run = (args: string[]) =>
    runMain(args, { cwd: project.dir, env: { OPENROUTER_API_KEY: ROUTER_KEY, DIRECT_API_KEY: DIRECT_KEY } });

  beforeAll(async () => {
    sim = await startSim();
    project = await makeProject({
      'driftcheck.config.yaml': `services:
  router: { kind: router, base_url: ${sim.url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0 }
  direct: { kind: direct, base_url: ${sim.url}/v1, api_key_env: DIRECT_API_KEY, retries: 0 }
`,
    });
    await copyFromRepo(project.dir, 'suites/demo', 'baselines');
  });
  afterAll(async () => {
    await project.cleanup();
    await sim.stop();
  });

  it.each([
    [
      ['--model', 'openai/gpt-4o-mini'],
      /--model: nothing was sent\nopenai\/gpt-4o-mini fits no suite of the selection:\n {2}the direct service direct does not list the model in its GET \/models/,
    ],
    [
      ['--models', 'kimi-k2-turbo-preview,anthropic/claude-sonnet-4.5'],
      /--models: nothing was sent\nanthropic\/claude-sonnet-4\.5 fits no suite of the selection:/,
    ],
    [
      ['--providers', 'groq'],
      /--providers: nothing was sent\nprovider groq fits no suite of the selection:\n {2}providers are a routing service's, and direct-demo runs on direct, a direct service/,
    ],
  ])('%j on the direct suite alone: exit 2, nothing sent, no run folder', async (flags, message) => {
    const before = (await sim.stats()).completions;
    const result = await run(['run', 'suites/demo/direct.yaml', ...flags]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect((await sim.stats()).completions).toBe(before);
    expect(existsSync(join(project.dir, 'reports'))).toBe(false);
  });

  it('refuses an empty candidate list before anything is sent, with an example of one (exit 2)', async () => {
    const before = (await sim.stats()).completions;
    for (const [flag, example] of [
      ['--models', '--models openai/gpt-4o-mini,anthropic/claude-sonnet-4.5'],
      ['--providers', '--providers deepinfra,together,groq'],
    ]) {
      const result = await run(['run', 'suites/demo', flag!, ' , ']);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`${flag} expects a comma-separated list of`);
      expect(result.stderr).toContain(`→ e.g. ${example}`);
    }
    expect((await sim.stats()).completions).toBe(before);
  });

  it('says which id was meant when a typo fits nothing', async () => {
    const result = await run(['run', 'suites/demo', '--model', 'kimi-k2-turbo-previw']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /the direct service direct does not list the model in its GET \/models\n {2}→ did you mean kimi-k2-turbo-preview\?/,
    );
  });
});

const LLAMA = `suite: llama
service: router
model: meta-llama/llama-3.3-70b-instruct
params: { max_tokens: 64, temperature: 0 }
cases:
  - id: capital
    prompt: What is the capital of France?
    expect: [{ non_empty: true }]
  - id: sum
    prompt: What is 2 + 2?
    expect: [{ non_empty: true }]
  - id: colour
    prompt: Name a colour.
    expect: [{ non_empty: true }]
`;

describe('--providers: one pinned run per provider of a router suite, compared side by side', () => {
  let project: Project;
  const providers = (list: string) =>
    runMain(
      [
        'run',
        '--sim',
        'suites/llama.yaml',
        'suites/demo/direct.yaml',
        '--providers',
        list,
        '--reporter',
        'json',
      ],
      {
        cwd: project.dir,
      },
    );

  beforeAll(async () => {
    project = await makeProject({ 'suites/llama.yaml': LLAMA });
    await copyFromRepo(project.dir, 'suites/demo', 'baselines');
    // Tonight's nightly baseline of the llama suite, served by the router's own pick.
    const nightly = await runMain(
      ['run', '--sim', 'suites/llama.yaml', '--update-baselines', '--reporter', 'json'],
      {
        cwd: project.dir,
      },
    );
    expect(nightly.code, nightly.stderr).toBe(0);
    const baseline = await readReport(runDirFrom(nightly, project.dir));
    expect(baseline.cases.map((c) => c.provider)).toEqual(['DeepInfra', 'DeepInfra', 'DeepInfra']);
  });
  afterAll(() => project.cleanup());

  it('serves each run by its provider, with the change of provider as info, and skips the direct suite', async () => {
    const run = await providers('deepinfra,groq');
    expect(run.code, `${run.stdout}${run.stderr}`).toBe(0);
    const [deepinfra, groq] = await reportsOf(run, project.dir);
    for (const [report, slug, name] of [
      [deepinfra!, 'deepinfra', 'DeepInfra'],
      [groq!, 'groq', 'Groq'],
    ] as const) {
      expect(reportSchemaErrors(report)).toEqual([]);
      expect(report.run).toMatchObject({ candidate_provider: slug, candidate_model: null, exit_code: 0 });
      expect(report.run.provenance.kind).toBe('candidate');
      expect(report.run.skipped_suites).toEqual([
        {
          suite: 'direct-demo',
          reason: "providers are a routing service's, and direct-demo runs on direct, a direct service",
        },
      ]);
      expect(report.cases.map((c) => [c.case, c.status, c.provider])).toEqual([
        ['capital', 'pass', name],
        ['sum', 'pass', name],
        ['colour', 'pass', name],
      ]);
    }
    // Groq is not the baseline's provider: what a provider candidate changes by design is info.
    for (const c of groq!.cases)
      expect(c.drift).toContainEqual(expect.objectContaining({ kind: 'provider_changed', severity: 'info' }));
    expect(run.stdout).toMatch(/Providers against the current baseline:/);
    expect(run.stdout).toMatch(/passed \/ total\s+│ 3 \/ 3\s+│ 3 \/ 3\s+│/);
    expect(run.stdout).toContain('skipped under every candidate: suite direct-demo');
  });

  it("refuses, before anything is sent, a provider with no endpoint of the suite's model, naming those that have one", async () => {
    const run = await providers('groq,openai');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "--providers: nothing was sent\nprovider openai fits no suite of the selection:\n  providers are a routing service's, and direct-demo runs on direct, a direct service\n  router has no endpoint of meta-llama/llama-3.3-70b-instruct by that provider (its GET /models/meta-llama/llama-3.3-70b-instruct/endpoints lists deepinfra, together, groq)",
    );
    // The provider that fits is not named, and no run folder was made.
    expect(run.stderr).not.toMatch(/provider groq/);
    expect(run.stderr).not.toMatch(/report: /);
    // A provider slug the router does not have at all gets a did-you-mean.
    const typo = await providers('deepinfra,togther');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(
      'provider togther: the router service router does not list the provider in its GET /providers\n  → did you mean together?',
    );
  });

  it('a provider candidate run is not a baseline: accept refuses it', async () => {
    const run = await providers('groq');
    expect(run.code).toBe(0);
    const accept = await runMain(['baseline', 'accept', runDirFrom(run, project.dir)], { cwd: project.dir });
    expect(accept.code).toBe(2);
    expect(accept.stderr).toContain('a candidate run (--providers provider groq)');
  });
});
