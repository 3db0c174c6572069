import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHistory } from '../../src/stored/history/read.js';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';

/** A suite whose `moving` case answers `reply` tonight (`steady` always passes). */
const suite = (reply: string): string =>
  [
    'suite: nightly',
    'service: router',
    'model: openai/gpt-4o-mini',
    'cases:',
    '  - id: steady',
    '    prompt: "Say exactly: ok steady"',
    '    expect: [{ contains: ok }]',
    '  - id: moving',
    '    prompt: "Say exactly: ok moving"',
    `    sim: { reply: "${reply}" }`,
    '    expect: [{ contains: ok }]',
    '',
  ].join('\n');

describe('run --history: tonight knows the nights before it', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  const ids: string[] = [];
  let last: { stdout: string; report: Awaited<ReturnType<typeof readReport>> };

  async function night(reply: string, extra: string[] = []) {
    await writeFile(join(project.dir, 'suites/nightly.yaml'), suite(reply));
    const run = await runMain(
      // Simulator nights are not nights unless forced: this test's nights are all simulated.
      [
        'run',
        '--sim',
        '--history',
        'history',
        '--history-force',
        '--reporter',
        'json,console,markdown',
        ...extra,
      ],
      {
        cwd: project.dir,
      },
    );
    expect(run.stderr).toMatch(/^history: history\/\d{4}-\d{2}\.jsonl$/m);
    const report = await readReport(runDirFrom(run, project.dir));
    ids.push(report.run.id);
    return { stdout: run.stdout, report };
  }

  beforeAll(async () => {
    project = await makeProject({ 'suites/nightly.yaml': suite('ok') });
    await night('ok', ['--update-baselines']); // night 1: the baseline, everything passes
    await night('sorry'); // night 2: `moving` starts failing
    await night('sorry'); // night 3
    last = await night('sorry'); // night 4
  });
  afterAll(() => project.cleanup());

  it('appends one record per night to the history', async () => {
    const history = await readHistory(join(project.dir, 'history'));
    expect(history.problems).toEqual([]);
    expect(history.runs.map((r) => r.run_id)).toEqual(ids);
    expect(history.runs[0]!.suites[0]!.baseline_source_run).toBeNull();
    expect(history.runs[1]!.suites[0]!.baseline_source_run).toBe(ids[0]);
  });

  it("names the night the change began in tonight's report, console and summary", async () => {
    const { report, stdout } = last;
    expect(reportSchemaErrors(report)).toEqual([]);
    const moving = report.cases.find((c) => c.case === 'moving')!;
    expect(moving.status).toBe('fail');
    expect(moving.history?.since?.run_id).toBe(ids[1]);
    expect(moving.history?.nights.map((n) => [n.run_id, n.status])).toEqual([
      [ids[0], 'pass'],
      [ids[1], 'fail'],
      [ids[2], 'fail'],
    ]);
    // A case that did not change carries no history.
    expect(report.cases.find((c) => c.case === 'steady')!.history).toBeUndefined();
    expect(stdout).toContain(
      `since ${ids[1]!.slice(0, 4)}-${ids[1]!.slice(4, 6)}-${ids[1]!.slice(6, 8)} (run ${ids[1]})`,
    );
    expect(stdout).toContain('last 3 nights ✓✗✗');
    const summary = await readFile(join(project.dir, 'reports', ids[3]!, 'summary.md'), 'utf8');
    expect(summary).toContain(`(run ${ids[1]})`);
  });

  it('notes a baseline acceptance in the history, where the slow-drift detector starts over', async () => {
    // A simulator run: accepted only with --force.
    const accept = await runMain(
      ['baseline', 'accept', `reports/${ids[3]}`, '--history', 'history', '--force'],
      {
        cwd: project.dir,
      },
    );
    expect(accept.code).toBe(0);
    expect(accept.stdout).toContain('history: baseline acceptance noted in history');
    const history = await readHistory(join(project.dir, 'history'));
    expect(history.baselines).toEqual([expect.objectContaining({ suite: 'nightly', source_run: ids[3] })]);
  });
});
