import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseEntry, Report } from '../../src/stored/report/types.js';
import { copyFromRepo, makeProject, readReport, runDirFrom, type CliResult } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';

type Project = Awaited<ReturnType<typeof makeProject>>;
const byId = (report: Report) => new Map<string, CaseEntry>(report.cases.map((c) => [c.id, c]));

// The README's setup: baselines written by --update-baselines without --repeat hold one
// sample per case; then a nightly samples each case 10 times.
describe('the demo with --repeat 10 against its one-sample baselines', () => {
  let project: Project;
  let run: CliResult;
  let report: Report;

  beforeAll(async () => {
    project = await makeProject();
    await copyFromRepo(project.dir, 'suites/demo', 'baselines');
    // Seeded: the tool suite's refund case misses the schema on 80 % of its samples, and
    // unseeded it passed half of them in about 3 % of runs (the test then failed).
    run = await runMain(['run', '--sim', 'suites/demo', '--repeat', '10'], {
      cwd: project.dir,
      env: { DRIFTCHECK_SIM_SEED: '7' },
    });
    report = await readReport(runDirFrom(run, project.dir));
  });
  afterAll(() => project.cleanup());

  it('fails, lists and records a case that fails every sample, whatever the baseline test says', () => {
    expect(run.code).toBe(1);
    expect(reportSchemaErrors(report)).toEqual([]);
    const cases = byId(report);
    for (const id of ['direct-demo/release-notes', 'support-demo/refund-window']) {
      const c = cases.get(id)!;
      expect(c.samples).toMatchObject({ sent: 10, passed: 0 });
      expect(c.status).toBe('fail');
      // Not a significant drop against one baseline sample: it fails on its expectations.
      expect(c.pass_rate).toMatchObject({ verdict: 'stable', baseline: { pass: 1, total: 1 } });
      expect(run.stdout).toContain(`✗ ${id} fail 0/10`);
    }
    expect(run.stdout).toMatch(/fails its expectations: 0\/10 samples pass \(fewer than half\)/);
    // The table-demo suite's six generated cases pass too; the tool suite's two cases on
    // DeepInfra fail (its calls miss the schema), its text case passes; the agent suite's
    // loop on Together runs out of steps on every sample (max_steps_reached: failed samples,
    // 0/10, not errors of the service), its cases on Fireworks and Chutes fail, its one on
    // Moonshot AI passes. The streamed suite's six slow first tokens still pass their checks;
    // its answer cut by an error event errors on every sample.
    expect(report.summary).toMatchObject({ failed: 7, errored: 3, passed: 19 });
  });

  it('keeps a case passing 10/10 a pass, and says its baseline is weak in every view', async () => {
    const arithmetic = byId(report).get('direct-demo/arithmetic')!;
    expect(arithmetic.status).toBe('pass');
    expect(arithmetic.pass_rate).toMatchObject({ verdict: 'stable', weak_baseline: true });
    const weak = report.suites.map((s) => s.drift.find((d) => d.kind === 'weak_baseline'));
    expect(weak.map((d) => d?.severity)).toEqual(['info', 'info', 'info', 'info', 'info', 'info']);
    expect(run.stdout).toMatch(
      /direct-demo \(suite\) weak_baseline\n\s+weak baseline: 4 of 4 repeated cases have 1 baseline sample/,
    );
    const dir = runDirFrom(run, project.dir);
    const summary = await readFile(join(dir, 'summary.md'), 'utf8');
    expect(summary).toMatch(
      /weak baseline: 5 of 5 repeated cases .* --update-baselines --repeat 10 records more/,
    );
    expect(summary).toContain(
      '| `direct-demo/release-notes` | 0/10 (0%, CI 0%–28%) | 1/1 | 0.03505 | stable (weak baseline: 1 sample) ❌ |',
    );
    expect(await readFile(join(dir, 'junit.xml'), 'utf8')).toMatch(/weak_baseline: weak baseline: 4 of 4/);
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    expect(html).toMatch(/<b>support-demo<\/b> weak_baseline: weak baseline/);
    expect(html).toContain('stable (weak baseline: 1 sample), failing');
  });

  it('fails the direct suite alone, which passed with exit 0 before', async () => {
    const direct = await runMain(['run', '--sim', 'suites/demo/direct.yaml', '--repeat', '10'], {
      cwd: project.dir,
    });
    expect(direct.code).toBe(1);
    expect(direct.stdout).toContain('✗ direct-demo/release-notes fail 0/10');
    expect(direct.stdout).toMatch(/FAIL — failures, errors or regressions \(exit 1\)/);
  });
});

describe('a case passing every sample against a one-sample baseline', () => {
  let project: Project;
  const args = ['run', '--sim', 'suites/demo', '--repeat', '10', '--filter', 'direct-demo/arithmetic'];

  beforeAll(async () => {
    project = await makeProject();
    await copyFromRepo(project.dir, 'suites/demo', 'baselines');
  });
  afterAll(() => project.cleanup());

  it('passes (exit 0) with the weak baseline stated, and not once the baseline holds 10 samples', async () => {
    const weak = await runMain(args, { cwd: project.dir });
    expect(weak.code).toBe(0);
    expect(weak.stdout).toMatch(/weak baseline: 1 of 1 repeated case has 1 baseline sample/);
    expect(weak.stdout).toMatch(/PASS — no failure, no regression \(exit 0\)/);

    const update = await runMain([...args, '--update-baselines'], { cwd: project.dir });
    expect(update.code).toBe(0);
    const strong = await runMain(args, { cwd: project.dir });
    expect(strong.code).toBe(0);
    expect(strong.stdout).not.toMatch(/weak/);
    const [c] = (await readReport(runDirFrom(strong, project.dir))).cases;
    expect(c!.pass_rate).toMatchObject({ baseline: { pass: 10, total: 10 }, weak_baseline: false });
  });
});

/** One router case that answers "ok", served by whatever the simulator routes it to. */
const SERVED = [
  'suite: served',
  'service: router',
  'model: openai/gpt-4o-mini',
  'cases:',
  '  - id: routed',
  '    prompt: "Say exactly: ok"',
  '    expect: [{ contains: ok }]',
  '',
].join('\n');

describe('a candidate from another vendor that passes its checks', () => {
  let project: Project;

  beforeAll(async () => {
    project = await makeProject({ 'suites/served.yaml': SERVED });
    const first = await runMain(['run', '--sim', '--update-baselines'], { cwd: project.dir });
    expect(first.code).toBe(0);
  });
  afterAll(() => project.cleanup());

  it('--model exits 0, with the model, provider and fingerprint it changed by design as info', async () => {
    const run = await runMain(['run', '--sim', '--model', 'anthropic/claude-sonnet-4.5'], {
      cwd: project.dir,
    });
    expect(run.code).toBe(0);
    const report = await readReport(runDirFrom(run, project.dir));
    const [routed] = report.cases;
    expect(routed!.status).toBe('pass');
    expect(routed!.providers).toEqual(['Anthropic']);
    expect(routed!.drift.filter((d) => d.kind.endsWith('_changed') && d.kind !== 'usage_changed')).toEqual([
      expect.objectContaining({ kind: 'model_changed', severity: 'info', baseline: 'openai/gpt-4o-mini' }),
      expect.objectContaining({ kind: 'provider_changed', severity: 'info', baseline: 'OpenAI' }),
      expect.objectContaining({ kind: 'fingerprint_changed', severity: 'info' }),
    ]);
    expect(report.summary.regressed).toBe(0);
  });

  it('--models exits 0 and shows no candidate as regressed', async () => {
    const run = await runMain(
      ['run', '--sim', '--models', 'anthropic/claude-sonnet-4.5,meta-llama/llama-3.3-70b-instruct'],
      { cwd: project.dir },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/REGRESSED/);
    expect(run.stdout).toMatch(/regressed · fixed · changed\s*│ 0 · 0 · \d+\s*│ 0 · 0 · \d+/);
  });

  it('a nightly run served by another provider still fails on provider_changed', async () => {
    await writeFile(
      join(project.dir, 'suites/served.yaml'),
      SERVED.replace('expect:', 'sim: { provider: Together }\n    expect:'),
    );
    const run = await runMain(['run', '--sim'], { cwd: project.dir });
    expect(run.code).toBe(1);
    const [routed] = (await readReport(runDirFrom(run, project.dir))).cases;
    expect(routed!.drift).toContainEqual(
      expect.objectContaining({ kind: 'provider_changed', severity: 'fail' }),
    );
  });
});
