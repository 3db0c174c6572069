import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/stored/report/types.js';
import { makeProject, readReport, readSamples, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';

/** Eight cases that each fail their check, on one service, sent one at a time. */
const FAILING = `suite: failing
service: router
model: openai/gpt-4o-mini
cases:
${Array.from(
  { length: 8 },
  (_, i) =>
    `  - id: c${i}\n    prompt: "Question ${i}: what is the refund window?"\n    expect: [{ contains: "no such words" }]\n`,
).join('')}`;

describe('run --bail N', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  beforeAll(async () => {
    project = await makeProject({ 'suites/failing.yaml': FAILING });
  });
  afterAll(() => project.cleanup());

  it('stops sending after N failing cases: exit 1, the rest not run, and every summary says so', async () => {
    const run = await runMain(['run', '--sim', '--bail', '2', '--concurrency', '1'], { cwd: project.dir });
    expect(run.code, run.stderr).toBe(1);
    const dir = runDirFrom(run, project.dir);
    const report: Report = await readReport(dir);
    const sent = (await readSamples(dir)).length;
    // What was in flight when the second failure was counted finishes; nothing after it is sent.
    expect(report.run.bail?.limit).toBe(2);
    expect(report.run.bail?.failing).toBeGreaterThanOrEqual(2);
    expect(sent).toBe(report.run.bail?.failing);
    expect(sent).toBeLessThanOrEqual(4);
    expect(report.summary).toMatchObject({ cases: 8, failed: sent, not_run: 8 - sent });
    expect(report.run.status).toBe('completed');
    expect(report.cases.filter((c) => c.status === 'not_run')).toHaveLength(8 - sent);
    const line = `--bail 2: sending stopped after ${sent} failing cases; ${8 - sent} cases not run`;
    expect(run.stdout).toContain(line);
    expect(await readFile(join(dir, 'summary.md'), 'utf8')).toContain(`**Bailed:** ${line}`);
    expect(await readFile(join(dir, 'report.html'), 'utf8')).toContain(line);
    expect(reportSchemaErrors(report)).toEqual([]);
  });

  it('a --bail never reached sends every case and leaves no trace', async () => {
    const run = await runMain(['run', '--sim', '--bail', '9', '--reporter', 'json'], { cwd: project.dir });
    expect(run.code).toBe(1);
    const report = await readReport(runDirFrom(run, project.dir));
    expect(report.summary).toMatchObject({ failed: 8, not_run: 0 });
    expect(report.run.bail).toBeUndefined();
  });

  it('refuses a count that is no whole number ≥ 1, and --bail with --update-baselines, sending nothing', async () => {
    const zero = await runMain(['run', '--sim', '--bail', '0'], { cwd: project.dir });
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain("--bail expects a whole number ≥ 1, got '0'");
    const update = await runMain(['run', '--sim', '--bail', '1', '--update-baselines'], { cwd: project.dir });
    expect(update.code).toBe(2);
    expect(update.stderr).toMatch(/--bail stops a run part-way/);
    expect(update.stderr).not.toMatch(/report:/);
  });
});
