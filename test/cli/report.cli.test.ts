import { cp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/stored/report/types.js';
import { makeProject, readReport, REPO, runDirFrom, type CliResult } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';

const REPORTS = ['report.json', 'report.html', 'junit.xml', 'summary.md'];

// Three cases sampled 4 times: one passes, one fails its expectation, one errors.
const SUITE = `suite: alpha
service: router
model: openai/gpt-4o-mini
repeat: 4
cases:
  - id: steady
    prompt: "Say exactly: ok steady"
    expect: [{ contains: ok }]
  - id: broken
    prompt: "Say exactly: ok broken"
    sim: { reply: "different" }
    expect: [{ contains: ok }]
  - id: faulty
    prompt: hello
    sim: { fault: body_error }
    expect: [{ non_empty: true }]
`;

describe('driftcheck report RUN_DIR', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let run: CliResult;
  let runDir: string;
  const written = new Map<string, string>();

  beforeAll(async () => {
    project = await makeProject({ 'suites/alpha.yaml': SUITE });
    run = await runMain(['run', '--sim'], { cwd: project.dir });
    runDir = runDirFrom(run, project.dir);
    for (const f of REPORTS) written.set(f, await readFile(join(runDir, f), 'utf8'));
  });
  afterAll(() => project.cleanup());

  it('says the same counts everywhere: cases in the verdict, samples beside them', async () => {
    const report = await readReport(runDir);
    expect(report.summary).toMatchObject({ cases: 3, samples: 12, passed: 1, failed: 1, errored: 1 });
    expect(run.stderr).toMatch(/^driftcheck: 3 cases \(12 samples\) from 1 suite/m);
    expect(run.stdout).toMatch(
      /^3 cases · 1 passed · 1 failed · 1 errored · 0 not run · 0 regressed · 0 drifted · 12 samples/m,
    );
    // One console line per case, with its samples.
    expect(run.stdout.split('\n').filter((l) => l.includes('alpha/broken'))).toEqual([
      expect.stringMatching(/^✗ alpha\/broken fail 0\/4 · /),
    ]);
    const md = written.get('summary.md')!;
    expect(md).toContain('· 3 cases · 12 samples ·');
    expect(md).toContain('| 3 | 1 | 1 | 1 | 0 | 0 | 0 | 12 |');
    const html = written.get('report.html')!;
    expect(html).toContain('data-view="all" aria-pressed="true"><b>3</b> all</button>');
    expect(html).toContain('over 12 samples');
    expect(written.get('junit.xml')).toMatch(/<testsuites [^>]*tests="3" failures="1" errors="1"/);
  });

  it('re-renders every report of a run whose reports were deleted, from its journal alone, byte for byte but for saying so', async () => {
    for (const f of REPORTS) await rm(join(runDir, f));
    const again = await runMain(['report', runDir], { cwd: project.dir });
    expect(again.code).toBe(run.code);
    expect(again.code).toBe(1);
    // report.json records that `report` wrote it; everything else is the run's own bytes.
    const rerendered = (f: string) =>
      f === 'report.json'
        ? written.get(f)!.replace('"rendered_by": "run"', '"rendered_by": "report"')
        : written.get(f);
    expect(written.get('report.json')).toContain('"rendered_by": "run"');
    for (const f of REPORTS) expect(await readFile(join(runDir, f), 'utf8'), f).toBe(rerendered(f));
    expect(again.stdout).toBe(run.stdout);
  });

  it('names the usage without a folder, and says where to look without a journal', async () => {
    const bare = await runMain(['report'], { cwd: project.dir });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^driftcheck report: usage: driftcheck report RUN_DIR/);
    const two = await runMain(['report', runDir, runDir], { cwd: project.dir });
    expect(two.code).toBe(2);
    expect(two.stderr).toBe(
      'driftcheck report: several run folders are folded into one report; say where with --out DIR\n',
    );
    const none = await runMain(['report', project.dir], { cwd: project.dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no journal \(results\.jsonl\) in this folder/);
  });
});

/** The 0.1 report's entries (one per sample) of each case: what the re-rendered entry aggregates. */
async function legacyCases(dir: string) {
  const old = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as {
    schema_version: number;
    cases: { suite: string; case: string; status: string }[];
  };
  expect(old.schema_version).toBe(1);
  const cases = new Map<string, { sent: number; passed: number; failed: number; planned: number }>();
  for (const e of old.cases) {
    const id = `${e.suite}/${e.case}`;
    const c = cases.get(id) ?? { sent: 0, passed: 0, failed: 0, planned: 0 };
    c.planned++;
    if (e.status !== 'not_run') c.sent++;
    if (e.status === 'pass') c.passed++;
    if (e.status === 'fail') c.failed++;
    cases.set(id, c);
  }
  return cases;
}

describe('run folders of driftcheck 0.1 (report schema 1)', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  const v01 = (name: string) => join(project.dir, 'reports', name);

  beforeAll(async () => {
    project = await makeProject();
    await cp(join(REPO, 'test/fixtures/v01'), join(project.dir, 'reports'), { recursive: true });
  });
  afterAll(() => project.cleanup());

  it('diff refuses a schema 1 report and names the command that converts it; after it, diff reads it', async () => {
    const refused = await runMain(['diff', v01('shard-1'), v01('shard-2')], { cwd: project.dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `report schema 1 is from an older driftcheck (one entry per sample); re-render it from its journal with \`driftcheck report ${v01('shard-1')}\``,
    );
    for (const dir of [v01('shard-1'), v01('shard-2')]) await runMain(['report', dir], { cwd: project.dir });
    const diff = await runMain(['diff', v01('shard-1'), v01('shard-2')], { cwd: project.dir });
    expect(diff.stderr).toBe('');
    expect(diff.stdout).toMatch(/^0 of 2 case\(s\) differ in \S+ against \S+/);
  });

  it('baseline accept refuses a schema 1 report the same way', async () => {
    const refused = await runMain(['baseline', 'accept', v01('paused')], { cwd: project.dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`\`driftcheck report ${v01('paused')}\``);
  });

  it('report re-renders a completed 0.1 run: its run as it was, one entry per case aggregating its samples', async () => {
    const expected = await legacyCases(v01('run'));
    const rendered = await runMain(['report', v01('run')], { cwd: project.dir });
    expect(rendered.code).toBe(1);
    const report = await readReport(v01('run'));
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(report.run).toMatchObject({
      id: '20261123T010431777Z-6513',
      status: 'completed',
      exit_code: 1,
      started_at: '2026-11-23T01:04:31.777Z',
      finished_at: '2026-11-23T01:04:31.862Z',
      command: ['driftcheck', 'run', '--sim', '--reporter', 'json'],
      driftcheck_version: '0.1.0',
      sim: true,
    });
    expect(report.cases.map((c) => c.id)).toEqual([...expected.keys()]);
    for (const c of report.cases) expect(c.samples, c.id).toMatchObject(expected.get(c.id)!);
    expect(report.cases.find((c) => c.case === 'broken')).toMatchObject({
      status: 'fail',
      content: 'different',
    });
    expect(report.summary).toMatchObject({ cases: 5, samples: 14, failed: 1, not_run: 0 });
    expect(report.suites.map((s) => [s.suite, s.file])).toEqual([
      ['alpha', 'suites/s.yaml'],
      ['beta', 'suites/t.yaml'],
    ]);
  });

  it('report re-renders a paused 0.1 run: paused, exit 3, its stop reason, the cases it never sent not run', async () => {
    const expected = await legacyCases(v01('paused'));
    const rendered = await runMain(['report', v01('paused')], { cwd: project.dir });
    expect(rendered.code).toBe(3);
    const report = await readReport(v01('paused'));
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(report.run).toMatchObject({ status: 'paused', stop_reason: { kind: 'insufficient_credit' } });
    for (const c of report.cases) expect(c.samples, c.id).toMatchObject(expected.get(c.id)!);
    expect(report.summary).toMatchObject({ cases: 5, samples: 3, not_run: 4 });
  });

  it('report reads a 0.1 run killed before it wrote its report as killed, and exits by what it rendered', async () => {
    const killed = join(project.dir, 'killed');
    await cp(v01('run'), killed, { recursive: true });
    await rm(join(killed, 'report.json'));
    const rendered = await runMain(['report', killed], { cwd: project.dir });
    const report = await readReport(killed);
    expect(report.run).toMatchObject({
      id: '20261123T010431777Z-6513',
      status: 'interrupted',
      exit_code: 137,
    });
    // Not 137 (nobody killed `report`): what it rendered holds a failing case, so 1.
    expect(report.summary.failed).toBe(1);
    expect(rendered.code).toBe(1);
    expect(rendered.stdout).toMatch(/KILLED — no end record/);
    expect(report.summary).toMatchObject({ cases: 5, samples: 14 });
  });

  it("merge reads 0.1 shards' journals: the same verdict as the unsharded run, and a missing shard refused", async () => {
    const whole = await runMain(['report', v01('run'), '--out', join(project.dir, 'whole')], {
      cwd: project.dir,
    });
    const merge = await runMain(
      ['merge', v01('shard-1'), v01('shard-2'), '--out', join(project.dir, 'merged')],
      {
        cwd: project.dir,
      },
    );
    expect(merge.code).toBe(whole.code);
    const verdict = (r: Report) => ({
      status: r.run.status,
      exit_code: r.run.exit_code,
      summary: r.summary,
      // The 0.1 simulator's coins differ between runs: the flaky case's passes are not compared.
      cases: r.cases.map((c) => [c.id, c.status, c.samples.sent]),
    });
    const merged = await readReport(join(project.dir, 'merged'));
    expect(reportSchemaErrors(merged)).toEqual([]);
    expect(verdict(merged)).toEqual(verdict(await readReport(join(project.dir, 'whole'))));
    // `report` with several folders folds them into one, as merge does.
    const combined = await runMain(
      ['report', v01('shard-1'), v01('shard-2'), '--out', join(project.dir, 'combined')],
      { cwd: project.dir },
    );
    expect(combined.code).toBe(merge.code);
    expect(verdict(await readReport(join(project.dir, 'combined')))).toEqual(verdict(merged));
    const partial = await runMain(['merge', v01('shard-1'), '--out', join(project.dir, 'partial')], {
      cwd: project.dir,
    });
    expect(partial.code).toBe(2);
    expect(partial.stderr).toMatch(
      /^driftcheck merge: shard 2\/2 missing; the merged report would be partial/,
    );
  });
});
