import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHistory } from '../../src/stored/history/read.js';
import { nightsByCase } from '../../src/history/nights.js';
import { firstChanged } from '../../src/history/trends.js';
import { makeProject, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

// The simulator's coins are seeded so the nights are reproducible.
const env = { DRIFTCHECK_SIM_SEED: '11', GITHUB_SHA: 'c0ffee', GITHUB_REF_NAME: 'main' };

/** One suite whose `moving` case passes with `rate` tonight (the simulator's stochastic model). */
const suite = (rate: number): string =>
  [
    'suite: nightly',
    'service: router',
    'model: openai/gpt-4o-mini',
    'repeat: 10',
    'cases:',
    '  - id: steady',
    '    prompt: "Say exactly: answer steady"',
    '    expect: [{ contains: answer }]',
    '  - id: moving',
    '    prompt: "Say exactly: answer moving"',
    `    sim: { pass_rate: ${rate} }`,
    '    expect: [{ contains: answer }]',
    '',
  ].join('\n');

describe('driftcheck history: simulated nights end to end', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  const runs: string[] = [];

  /** Runs one night with the case at `rate`, and appends it to the history. */
  async function night(rate: number, extra: string[] = []): Promise<string> {
    await writeFile(join(project.dir, 'suites/nightly.yaml'), suite(rate));
    const run = await runMain(['run', '--sim', '--reporter', 'json', ...extra], { cwd: project.dir, env });
    expect([0, 1]).toContain(run.code);
    const dir = runDirFrom(run, project.dir);
    const add = await runMain(['history', 'add', 'history', dir], { cwd: project.dir, env });
    expect(add.code).toBe(0);
    expect(add.stderr).toMatch(/history: added run \S+ \(2 cases\) to history\/\d{4}-\d{2}\.jsonl/);
    runs.push(dir.split(/[\\/]/).pop()!);
    return dir;
  }

  beforeAll(async () => {
    project = await makeProject({ 'suites/nightly.yaml': suite(1) });
    await night(1, ['--update-baselines']);
    await night(0.2);
    await night(0.2);
  }, 120_000);
  afterAll(() => project.cleanup());

  it('records each night with its git commit and branch, and adds a run only once', async () => {
    const history = await readHistory(join(project.dir, 'history'));
    expect(history.problems).toEqual([]);
    expect(history.runs.map((r) => r.run_id)).toEqual(runs);
    expect(history.runs[0]!.git).toEqual({ commit: 'c0ffee', branch: 'main' });
    expect(history.runs[1]!.suites[0]!.baseline_source_run).toBe(runs[0]);
    const moving = history.runs.map((r) => r.cases.find((c) => c.case === 'moving')!);
    expect(moving.map((c) => c.samples)).toEqual([10, 10, 10]);
    expect(moving[0]!.passes).toBe(10);
    expect(moving[1]!.passes).toBeLessThan(7);

    const again = await runMain(['history', 'add', 'history', join('reports', runs[0]!)], {
      cwd: project.dir,
      env,
    });
    expect(again.stderr).toContain(`run ${runs[0]} is already in history; skipped`);
    expect((await readHistory(join(project.dir, 'history'))).runs).toHaveLength(3);

    // The same run finished later (paused, then resumed to its end): appended, and read as the last.
    const reportFile = join(project.dir, 'reports', runs[2]!, 'report.json');
    const text = await readFile(reportFile, 'utf8');
    const ended = text.replace(/"finished_at": "[^"]+"/, '"finished_at": "2099-01-01T00:00:00.000Z"');
    expect(ended).not.toBe(text);
    await writeFile(reportFile, ended);
    const resumed = await runMain(['history', 'add', 'history', join('reports', runs[2]!)], {
      cwd: project.dir,
      env,
    });
    expect(resumed.stderr).toMatch(/history: added run/);
    const after = await readHistory(join(project.dir, 'history'));
    expect(after.runs.map((r) => r.run_id)).toEqual(runs);
    expect(after.runs[2]!.finished_at).toBe('2099-01-01T00:00:00.000Z');
  });

  it('renders the trend page from the history', async () => {
    const page = await runMain(['history', 'history', '--out', 'trend.html'], { cwd: project.dir, env });
    expect(page.code).toBe(0);
    expect(page.stderr).toMatch(/trend page: trend\.html \(3 nights, 2 cases, \d+ KiB\)/);
    const html = await readFile(join(project.dir, 'trend.html'), 'utf8');
    expect(html).toContain('"id":"nightly/moving"');
    expect(html).toContain(`reports/{run}/report.html#{suite}/{case}`);
  });

  it('lets a fourth night name the night the change began', async () => {
    await night(0.2);
    const history = await readHistory(join(project.dir, 'history'));
    const nights = nightsByCase(history);
    expect(firstChanged(nights.get('nightly/moving')!)?.run_id).toBe(runs[1]);
    expect(nights.get('nightly/moving')!.map((n) => n.entry.status)).toEqual([
      'pass',
      'fail',
      'fail',
      'fail',
    ]);
    expect(firstChanged(nights.get('nightly/steady')!)).toBeNull();
  });

  it('refuses a report.json whose run start is no date-time, naming the file and how to mend it (exit 2)', async () => {
    const dir = join(project.dir, 'reports', runs[0]!);
    const file = join(dir, 'report.json');
    const text = await readFile(file, 'utf8');
    const report = JSON.parse(text);
    report.run.started_at = 'x';
    await writeFile(file, JSON.stringify(report));
    try {
      const add = await runMain(['history', 'add', 'fresh-history', dir, '--force'], {
        cwd: project.dir,
        env,
      });
      expect(add.code, add.stderr).toBe(2);
      expect(add.stderr).toContain(`reports/${runs[0]}/report.json`);
      expect(add.stderr).toMatch(/run\.started_at is "x", not an ISO date-time/);
      expect(add.stderr).toContain(`driftcheck report `);
    } finally {
      await writeFile(file, text);
    }
  });

  it('appends nothing when a later folder holds a damaged case line: every case is read before the first line is written (exit 2)', async () => {
    const dir = join(project.dir, 'reports', runs[1]!);
    const file = join(dir, 'report.json');
    const text = await readFile(file, 'utf8');
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes('"case":'));
    lines[at] = lines[at]!.slice(0, 20);
    await writeFile(file, lines.join('\n'));
    try {
      const add = await runMain(
        ['history', 'add', 'damaged-history', join(project.dir, 'reports', runs[0]!), dir, '--force'],
        { cwd: project.dir, env },
      );
      expect(add.code, add.stderr).toBe(2);
      expect(add.stderr).toContain(`reports/${runs[1]}/report.json`);
      expect(existsSync(join(project.dir, 'damaged-history'))).toBe(false);
    } finally {
      await writeFile(file, text);
    }
  });

  it('reports corrupt lines and keeps rendering; usage errors exit 2', async () => {
    const [month] = await readdir(join(project.dir, 'history'));
    await writeFile(join(project.dir, 'history', month!), '{"s":"nightly","c":"torn","n":1', { flag: 'a' });
    const page = await runMain(['history', 'history', '--out', 'trend.html'], { cwd: project.dir, env });
    expect(page.code).toBe(0);
    expect(page.stderr).toMatch(new RegExp(`history/${month}:\\d+: not JSON .*; line skipped`));
    const usage = await runMain(['history', 'history'], { cwd: project.dir, env });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('usage: driftcheck history DIR --out FILE.html');
    for (const args of [
      ['history', '--help'],
      ['history', 'add', '--help'],
    ]) {
      const help = await runMain(args, { cwd: project.dir, env });
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('driftcheck history add DIR REPORT_DIR…');
    }
  });
});
