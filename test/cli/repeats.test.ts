import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readReport, runCli, runDirFrom } from '../helpers/cli.js';
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
    const baseline = await runCli(['run', '--sim', '--update-baselines', '--reporter', 'json'], {
      cwd: project.dir,
      env,
    });
    expect(baseline.stderr).toContain('baseline written');
  });
  afterAll(() => project.cleanup());

  it('records the full 40 samples per case in the baseline when there was none', async () => {
    const { readFile } = await import('node:fs/promises');
    const baseline = JSON.parse(await readFile(join(project.dir, 'baselines/noisy.json'), 'utf8'));
    expect(baseline.cases.steady.samples).toEqual({ pass: 40, total: 40 });
    expect(baseline.cases.flaky.samples.total).toBe(40);
    expect(baseline.cases.flaky.samples.pass).toBeGreaterThan(5);
    expect(baseline.cases.flaky.samples.pass).toBeLessThan(35);
  });

  it('flags a real drop as pass_rate_dropped with the p-value, stops early on clear cases, and calls flaky flaky', async () => {
    await writeFile(join(project.dir, 'suites/noisy.yaml'), suite({ steady: 1, flaky: 0.5, drops: 0.3 }));
    const run = await runCli(['run', '--sim', '--reporter', 'json'], { cwd: project.dir, env });
    expect(run.code).toBe(1);
    const report = await readReport(runDirFrom(run, project.dir));
    expect(reportSchemaErrors(report)).toEqual([]);
    const stats = new Map(report.suites[0]!.pass_rates.map((s) => [s.case, s]));
    expect(stats.get('drops')).toMatchObject({ verdict: 'dropped', failing: true });
    expect(stats.get('drops')!.p).toBeLessThan(0.01);
    expect(stats.get('steady')).toMatchObject({
      verdict: 'stable',
      failing: false,
      samples: { pass: 10, total: 10 },
    });
    expect(stats.get('flaky')).toMatchObject({ verdict: 'flaky', failing: false });
    const drift = report.cases.filter((c) => c.case === 'drops').flatMap((c) => c.drift);
    // One case-level verdict; no per-sample "regressed" noise (content drift of failing samples stays visible).
    expect(drift.filter((d) => d.kind === 'pass_rate_dropped')).toHaveLength(1);
    expect(drift.map((d) => d.kind)).not.toContain('regressed');
    expect(drift[0]!.message).toMatch(/pass rate 100% \(40\/40\) → \d+% \(\d+\/\d+\), p = /);
    // Failing samples of the flaky case are noise, not regressions.
    expect(
      report.cases.filter((c) => c.case === 'flaky').flatMap((c) => c.drift.map((d) => d.kind)),
    ).not.toContain('regressed');
    expect(report.cases.every((c) => c.sampling === 'auto')).toBe(true);
    // Samples added beyond the plan are listed with their case, in repeat order.
    const order = report.cases.map((c) => `${c.case}#${c.repeat}`);
    const cases = [...new Set(report.cases.map((c) => c.case))];
    expect(order).toEqual(
      cases.flatMap((id) => report.cases.filter((c) => c.case === id).map((c, i) => `${id}#${i}`)),
    );
    // …which this run has: the flaky case went past the 10 planned samples.
    expect(report.cases.filter((c) => c.case === 'flaky').length).toBeGreaterThan(10);
  });

  it('a run without drift exits 0 even though some samples of the flaky case fail', async () => {
    await writeFile(join(project.dir, 'suites/noisy.yaml'), suite({ steady: 1, flaky: 0.5, drops: 1 }));
    const run = await runCli(['run', '--sim', '--reporter', 'json'], { cwd: project.dir, env });
    const report = await readReport(runDirFrom(run, project.dir));
    expect(report.cases.some((c) => c.case === 'flaky' && c.status === 'fail')).toBe(true);
    expect(report.suites[0]!.pass_rates.every((s) => !s.failing)).toBe(true);
    expect(run.code).toBe(0);
  });
});
