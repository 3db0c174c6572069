import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Baseline } from '../../src/stored/baseline/types.js';
import type { Report } from '../../src/stored/report/types.js';
import type { Drift } from '../../src/record/drift-kinds.js';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';

type Project = Awaited<ReturnType<typeof makeProject>>;

/** Two cases of five samples each: enough for the rank test on both sides. */
const suite = (extra: { drift?: string; slowCase?: boolean } = {}) => `suite: speed
service: router
model: openai/gpt-4o-mini
repeat: 5
${extra.drift ?? ''}
cases:
  - id: quick
    prompt: "Say exactly: quick"
    expect: [{ contains: quick }]
  - id: lookup
    prompt: "Say exactly: lookup"
    expect: [{ contains: lookup }]
${extra.slowCase ? '    sim: { delay_ms: 600 }\n' : ''}`;

const latencyDrift = (report: Report): [string, Drift][] => [
  ...report.cases.flatMap((c) =>
    c.drift.filter((d) => d.kind === 'latency_changed').map((d) => [c.case, d] as [string, Drift]),
  ),
  ...report.suites.flatMap((s) =>
    s.drift.filter((d) => d.kind === 'latency_changed').map((d) => ['(suite)', d] as [string, Drift]),
  ),
];

describe('latency_changed on the simulator: a baseline at normal speed, then a slow night', () => {
  let project: Project;
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runMain(args, { cwd: project.dir, env });
  const history = ['--history', 'history', '--history-force'];

  beforeAll(async () => {
    project = await makeProject({ 'suites/speed.yaml': suite() });
    const accept = await cli(['run', '--sim', '--update-baselines', ...history]);
    expect(accept.code, accept.stderr).toBe(0);
  });
  afterAll(() => project.cleanup());

  it('the baseline keeps the answered latencies of each case: n, p50, p95 and the sorted values', async () => {
    const text = await readFile(join(project.dir, 'baselines/speed.json'), 'utf8');
    const baseline = JSON.parse(text) as Baseline;
    for (const id of ['quick', 'lookup']) {
      const latency = baseline.cases[id]!.latency_ms!;
      expect(latency.n).toBe(5);
      expect(latency.sample).toHaveLength(5);
      expect([...latency.sample].sort((a, b) => a - b)).toEqual(latency.sample);
      expect(latency.p50).toBe(latency.sample[2]);
    }
    // Reviewable: the sketch sits in a fixed place, before the answer.
    expect(text.indexOf('"latency_ms"')).toBeLessThan(text.indexOf('"content"'));
  });

  it('a night at normal speed has no latency_changed', async () => {
    const run = await cli(['run', '--sim']);
    expect(run.code, run.stderr).toBe(0);
    const report = await readReport(runDirFrom(run, project.dir));
    expect(latencyDrift(report)).toEqual([]);
    expect(run.stdout).not.toContain('latency');
  });

  it('every answer 600 ms slower (DRIFTCHECK_SIM_LATENCY_MS): latency_changed warn on each case, exit 0', async () => {
    const run = await cli(['run', '--sim', ...history], { DRIFTCHECK_SIM_LATENCY_MS: '600' });
    expect(run.code, run.stderr).toBe(0);
    const report = await readReport(runDirFrom(run, project.dir));
    expect(reportSchemaErrors(report)).toEqual([]);
    const found = latencyDrift(report);
    expect(found.map(([id, d]) => [id, d.severity])).toEqual([
      ['quick', 'warn'],
      ['lookup', 'warn'],
    ]);
    for (const [, d] of found) {
      expect((d.current as { p50: number }).p50).toBeGreaterThanOrEqual(600);
      expect(d.message).toMatch(
        /^latency slower: p50 \d+ → \d+ ms \(\+\d+%\), p95 .* over 5 → 5 samples \(rank test p = 0\.016 Holm-adjusted, exact, alpha 0\.05\)$/,
      );
    }
    expect(report.summary).toMatchObject({ regressed: 0, drifted: 2 });
    expect(run.stdout).toMatch(/! speed\/quick pass 5\/5 · openai\/gpt-4o-mini\n\s+latency slower: p50/);
    expect(report.cases[0]!.stats.answered.latency_ms).toMatchObject({ n: 5 });
  });

  it('the trend page marks the slow night', async () => {
    const page = await cli(['history', 'history', '--out', 'trend.html']);
    expect(page.code, page.stderr).toBe(0);
    const html = await readFile(join(project.dir, 'trend.html'), 'utf8');
    const data = JSON.parse(
      /<script type="application\/json" id="trend-data">(.*?)<\/script>/s.exec(html)![1]!,
    );
    const marks = (data.suites[0].events as { night: number; kind: string; text: string }[]).filter(
      (e) => e.kind === 'latency_changed',
    );
    expect(marks).toEqual([{ night: 1, kind: 'latency_changed', text: 'latency changed: 2 cases' }]);
  });

  it('one case slower under the suite drift rule `latency: { severity: fail }`: that case regresses, exit 1', async () => {
    await writeFile(
      join(project.dir, 'suites/speed.yaml'),
      suite({ drift: 'drift: { latency: { severity: fail } }', slowCase: true }),
    );
    const run = await cli(['run', '--sim']);
    expect(run.code, run.stdout).toBe(1);
    const report = await readReport(runDirFrom(run, project.dir));
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(latencyDrift(report).map(([id, d]) => [id, d.severity])).toEqual([['lookup', 'fail']]);
    expect(report.summary).toMatchObject({ passed: 2, regressed: 1 });
    expect(run.stdout).toMatch(/✗ speed\/lookup .*\n\s+latency slower: p50/);
  });

  it('a tolerance wider than the slowdown keeps it quiet', async () => {
    await writeFile(
      join(project.dir, 'suites/speed.yaml'),
      suite({ drift: 'drift: { latency: { absolute_ms: 5000, severity: fail } }', slowCase: true }),
    );
    const run = await cli(['run', '--sim']);
    expect(run.code, run.stdout).toBe(0);
    expect(latencyDrift(await readReport(runDirFrom(run, project.dir)))).toEqual([]);
  });

  it("a case's own drift.latency over the suite's: the slow case held to 200 ms under a suite tolerating 5 s regresses, exit 1", async () => {
    const own = '    drift: { latency: { absolute_ms: 200, severity: fail } }\n';
    await writeFile(
      join(project.dir, 'suites/speed.yaml'),
      `${suite({ drift: 'drift: { latency: { absolute_ms: 5000 } }', slowCase: true })}${own}`,
    );
    const run = await cli(['run', '--sim']);
    expect(run.code, run.stdout).toBe(1);
    const report = await readReport(runDirFrom(run, project.dir));
    expect(latencyDrift(report).map(([id, d]) => [id, d.severity])).toEqual([['lookup', 'fail']]);
  });
});

describe('latency inputs that are wrong are named, never exit 70', () => {
  let project: Project;
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runMain(args, { cwd: project.dir, env });

  beforeAll(async () => {
    project = await makeProject({ 'suites/speed.yaml': suite() });
  });
  afterAll(() => project.cleanup());

  it.each(['fast', '-5', '1.5', '700000'])(
    'DRIFTCHECK_SIM_LATENCY_MS=%s is a usage error (exit 2), nothing sent',
    async (value) => {
      const run = await cli(['run', '--sim'], { DRIFTCHECK_SIM_LATENCY_MS: value });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('DRIFTCHECK_SIM_LATENCY_MS');
    },
  );

  it('a drift.latency rule of the wrong shape is a suite error with its line (exit 2)', async () => {
    await writeFile(
      join(project.dir, 'suites/speed.yaml'),
      suite({ drift: 'drift: { latency: { severity: loud } }' }),
    );
    const run = await cli(['validate']);
    expect(run.code).toBe(2);
    expect(run.stderr + run.stdout).toMatch(/speed\.yaml:5:/);
    await writeFile(join(project.dir, 'suites/speed.yaml'), suite());
  });

  it('a hand-edited baseline latency is named with the file (exit 2)', async () => {
    const accept = await cli(['run', '--sim', '--update-baselines']);
    expect(accept.code, accept.stderr).toBe(0);
    const file = join(project.dir, 'baselines/speed.json');
    const baseline = JSON.parse(await readFile(file, 'utf8'));
    baseline.cases.quick.latency_ms.sample = 'fast';
    await writeFile(file, JSON.stringify(baseline));
    const run = await cli(['run', '--sim']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /speed\.json: the baseline does not have the expected shape: 'cases\.quick\.latency_ms\.sample'/,
    );
  });
});
