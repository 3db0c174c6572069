import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';

// The simulator's coins are seeded so these runs are reproducible.
const env = { DRIFTCHECK_SIM_SEED: '7' };

function suite(rates: { steady: number; flaky: number; drops: number }, repeat = 'auto'): string {
  const c = (id: string, rate: number) =>
    `  - id: ${id}\n    prompt: "Say exactly: answer ${id}"\n    sim: { pass_rate: ${rate} }\n    expect: [{ contains: answer }]`;
  return `suite: noisy\nservice: router\nmodel: openai/gpt-4o-mini\nrepeat: ${repeat}\ncases:\n${[
    c('steady', rates.steady),
    c('flaky', rates.flaky),
    c('drops', rates.drops),
  ].join('\n')}\n`;
}

describe('repeats with statistics (repeat: auto)', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  beforeAll(async () => {
    project = await makeProject({ 'suites/noisy.yaml': suite({ steady: 1, flaky: 0.5, drops: 1 }) });
    const baseline = await runMain(['run', '--sim', '--update-baselines', '--reporter', 'json'], {
      cwd: project.dir,
      env,
    });
    expect(baseline.stderr).toContain('baseline written');
  });
  afterAll(() => project.cleanup());

  it('samples a new case whose samples disagree to the cap, and stops one whose samples agree at the first look', async () => {
    const { readFile } = await import('node:fs/promises');
    const baseline = JSON.parse(await readFile(join(project.dir, 'baselines/noisy.json'), 'utf8'));
    expect(baseline.cases.steady.samples).toEqual({ pass: 10, total: 10 });
    expect(baseline.cases.flaky.samples.total).toBe(40);
    expect(baseline.cases.flaky.samples.pass).toBeGreaterThan(5);
    expect(baseline.cases.flaky.samples.pass).toBeLessThan(35);
  });

  it('flags a real drop as pass_rate_dropped with the p-value, stops early on clear cases, and calls flaky flaky', async () => {
    await writeFile(join(project.dir, 'suites/noisy.yaml'), suite({ steady: 1, flaky: 0.5, drops: 0.3 }));
    const run = await runMain(['run', '--sim', '--reporter', 'json,console'], { cwd: project.dir, env });
    expect(run.code).toBe(1);
    const report = await readReport(runDirFrom(run, project.dir));
    expect(reportSchemaErrors(report)).toEqual([]);
    // One entry per case, its status the verdict a person should read.
    expect(report.cases.map((c) => c.case)).toEqual(['steady', 'flaky', 'drops']);
    const byId = new Map(report.cases.map((c) => [c.case, c]));
    expect(byId.get('drops')).toMatchObject({ status: 'fail', pass_rate: { verdict: 'dropped' } });
    expect(byId.get('drops')!.pass_rate!.p).toBeLessThan(0.01);
    expect(byId.get('steady')).toMatchObject({
      status: 'pass',
      pass_rate: { verdict: 'stable' },
      samples: { sent: 10, passed: 10 },
    });
    expect(byId.get('flaky')).toMatchObject({ status: 'pass', pass_rate: { verdict: 'flaky' } });
    const drift = byId.get('drops')!.drift;
    // One case-level verdict; no per-sample "regressed" noise.
    expect(drift.filter((d) => d.kind === 'pass_rate_dropped')).toHaveLength(1);
    expect(drift.map((d) => d.kind)).not.toContain('regressed');
    expect(drift[0]!.message).toMatch(/pass rate 100% \(10\/10\) → \d+% \(\d+\/\d+\), p = /);
    // Failing samples of the flaky case are noise, not regressions.
    expect(byId.get('flaky')!.drift.map((d) => d.kind)).not.toContain('regressed');
    expect(report.cases.every((c) => c.sampling === 'auto')).toBe(true);
    // The flaky case went past the 10 planned samples; its samples are counted, not listed.
    expect(byId.get('flaky')!.samples.sent).toBeGreaterThan(10);
    expect(report.summary.cases).toBe(3);
    expect(report.summary.samples).toBe(report.cases.reduce((n, c) => n + c.samples.sent, 0));
    // The console says it once per case, with its samples: `✗ noisy/drops fail 4/40 · …`.
    const dropsLines = run.stdout.split('\n').filter((l) => l.includes('noisy/drops'));
    expect(dropsLines).toHaveLength(1);
    expect(dropsLines[0]).toMatch(/noisy\/drops fail \d+\/\d+ · /);
    expect(run.stdout).toMatch(/pass rate 100% \(10\/10\) → \d+% \(\d+\/\d+\), p = /);
  });

  it('a run without drift exits 0 even though some samples of the flaky case fail', async () => {
    await writeFile(join(project.dir, 'suites/noisy.yaml'), suite({ steady: 1, flaky: 0.5, drops: 1 }));
    const run = await runMain(['run', '--sim', '--reporter', 'json'], { cwd: project.dir, env });
    const report = await readReport(runDirFrom(run, project.dir));
    const flaky = report.cases.find((c) => c.case === 'flaky')!;
    expect(flaky.samples.failed).toBeGreaterThan(0);
    expect(flaky.status).toBe('pass');
    expect(report.cases.every((c) => c.status === 'pass')).toBe(true);
    expect(run.code).toBe(0);
  });
});
