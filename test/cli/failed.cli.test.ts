import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/stored/report/types.js';
import { makeProject, readReport, runDirFrom, type CliResult } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

/** Four cases; tonight's `sim:` keys make one fail, one error, and move one to another provider. */
const SUITE = `suite: night
service: router
model: openai/gpt-4o-mini
cases:
  - id: steady
    prompt: "Say exactly: hello"
    expect: [{ equals: hello }]
  - id: wrong
    prompt: What is the refund window?
    sim: { reply: "Refunds within 14 days." }
    expect: [{ contains: 30 days }]
  - id: broken
    prompt: Do you ship to Canada?
    sim: { fault: body_error }
    expect: [{ non_empty: true }]
  - id: moved
    prompt: How long is the warranty?
    sim: { provider: Azure }
    expect: [{ non_empty: true }]
`;
/** The same suite on a night every case behaved (its baseline), and once fixed. */
const BEHAVED = SUITE.replace(/\n\s+sim: \{[^}]*\}/g, '').replace(
  'prompt: What is the refund window?',
  'prompt: What is the refund window?\n    sim: { reply: "Refunds within 30 days." }',
);

const ids = (report: Report) => report.cases.map((c) => c.id);

describe('run --failed RUN_DIR: a new run of the cases that failed, errored or regressed there', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let night: CliResult;
  let nightDir: string;
  const cli = (args: string[]) => runMain(args, { cwd: project.dir });
  const suiteFile = () => join(project.dir, 'suites/night.yaml');

  beforeAll(async () => {
    project = await makeProject({ 'suites/night.yaml': BEHAVED });
    expect((await cli(['run', '--sim', '--update-baselines'])).code).toBe(0);
    await writeFile(suiteFile(), SUITE);
    night = await cli(['run', '--sim']);
    nightDir = runDirFrom(night, project.dir);
  });
  afterAll(() => project.cleanup());

  it('re-runs exactly those cases, of the suites and on the simulator the run used, and says how many', async () => {
    expect(night.code).toBe(1);
    const first = await readReport(nightDir);
    expect(first.cases.find((c) => c.id === 'night/moved')).toMatchObject({ status: 'pass' });
    expect(first.cases.find((c) => c.id === 'night/moved')?.drift.map((d) => d.kind)).toContain(
      'provider_changed',
    );
    // No --sim and no paths: both are the run's own.
    const again = await cli(['run', '--failed', nightDir]);
    expect(again.code, again.stderr).toBe(1);
    expect(again.stderr).toContain(
      `driftcheck: --failed ${nightDir}: running again the 3 cases of run ${first.run.id} that failed, errored or regressed (1 failed, 1 errored, 1 regressed; 4 cases in all)`,
    );
    expect(again.stderr).toMatch(/3 cases from 1 suite on the embedded simulator/);
    const report = await readReport(runDirFrom(again, project.dir));
    expect(ids(report)).toEqual(['night/wrong', 'night/broken', 'night/moved']);
    expect(report.run.sim).toBe(true);
    // Not every case of the suite: never a night, never missing the others.
    expect(report.run.provenance.complete).toBe(false);
    expect(report.cases.flatMap((c) => c.drift.map((d) => d.kind))).not.toContain('missing_case');
    const run = JSON.parse(await readFile(join(runDirFrom(again, project.dir), 'run.json'), 'utf8'));
    expect(run.plan.cases).toEqual(['night/wrong', 'night/broken', 'night/moved']);
  });

  it('once fixed, the re-run of the failures passes (exit 0)', async () => {
    await writeFile(suiteFile(), BEHAVED);
    const fixed = await cli(['run', '--failed', nightDir]);
    expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
    expect(ids(await readReport(runDirFrom(fixed, project.dir)))).toEqual([
      'night/wrong',
      'night/broken',
      'night/moved',
    ]);
    // --filter narrows the failures further.
    const one = await cli(['run', '--failed', nightDir, '--filter', 'wrong']);
    expect(one.code).toBe(0);
    expect(ids(await readReport(runDirFrom(one, project.dir)))).toEqual(['night/wrong']);
  });

  it('a run where nothing failed selects nothing: exit 2, nothing sent, as an empty selection', async () => {
    const clean = await cli(['run', '--sim']);
    expect(clean.code).toBe(0);
    const nothing = await cli(['run', '--failed', runDirFrom(clean, project.dir)]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(
      /nothing to run: no case of run \S+ \(.+\) failed, errored or regressed \(4 cases\)/,
    );
    expect(nothing.stderr).not.toMatch(/report:/);
  });

  it('failures no longer in the suites are said; none left is exit 2; --resume and a folder that is no run are refused', async () => {
    await writeFile(suiteFile(), BEHAVED.replace(/ {2}- id: wrong[\s\S]*?(?= {2}- id: broken)/, ''));
    const fewer = await cli(['run', '--failed', nightDir]);
    expect(fewer.code).toBe(0);
    expect(fewer.stderr).toContain('driftcheck: --failed: 1 of them no longer in the suites');
    await writeFile(suiteFile(), SUITE.replace(/night/g, 'other'));
    const gone = await cli(['run', '--failed', nightDir]);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toMatch(/nothing to run: none of the 3 case\(s\) --failed selected/);
    const resume = await cli(['run', '--failed', nightDir, '--resume']);
    expect(resume.code).toBe(2);
    expect(resume.stderr).toMatch(/--failed RUN_DIR starts a new run/);
    const notARun = await cli(['run', '--failed', 'suites']);
    expect(notARun.code).toBe(2);
    expect(notARun.stderr).toMatch(/not a run folder: it has no report\.json/);
  });
});
