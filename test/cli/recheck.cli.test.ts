import { cp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseEntry, Report } from '../../src/stored/report/types.js';
import { copyFromRepo, makeProject, readReport, readTree, runDirFrom } from '../helpers/cli.js';
import { runMain, startSim } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';

const ROUTER_KEY = `sk-or-v1-${'ab12'.repeat(16)}`;
const DIRECT_KEY = `sk-${'cd34'.repeat(12)}`;
const ENV = { OPENROUTER_API_KEY: ROUTER_KEY, DIRECT_API_KEY: DIRECT_KEY };

/** A suite with judges beside the demo's: one stays as it is, one is changed after the run. */
const JUDGED = (changedRubric: string) => `suite: judged
service: router
model: openai/gpt-4o-mini
cases:
  - id: same-judge
    prompt: What is the refund window?
    sim: { reply: "Refunds are accepted within 30 days of purchase, with the receipt." }
    expect:
      - contains: 30 days
      - judge: { model: openai/gpt-4o-mini, rubric: 'must mention "30 days"' }
  - id: changed-judge
    prompt: How long do refunds take?
    sim: { reply: "Refunds are accepted within 30 days of purchase, with the receipt." }
    expect:
      - judge: { model: openai/gpt-4o-mini, rubric: '${changedRubric}' }
`;

const config = (url: string) => `services:
  router: { kind: router, base_url: ${url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0 }
  direct: { kind: direct, base_url: ${url}/v1, api_key_env: DIRECT_API_KEY, retries: 0 }
`;

/** A loopback server that answers nothing useful and counts every request, whatever its path. */
async function countingServer(): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let n = 0;
  const server: Server = createServer((req, res) => {
    n++;
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"counted"}}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => n,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

const entry = (report: Report, id: string): CaseEntry => {
  const found = report.cases.find((c) => c.id === id);
  if (!found) throw new Error(`no case ${id} in ${report.cases.map((c) => c.id).join(', ')}`);
  return found;
};

describe("driftcheck recheck: today's checks on a run's stored answers, sending nothing", () => {
  let sim: Awaited<ReturnType<typeof startSim>>;
  let counter: Awaited<ReturnType<typeof countingServer>>;
  let project: Awaited<ReturnType<typeof makeProject>>;
  let sourceDir: string;
  let source: Report;
  const cli = (args: string[]) => runMain(args, { cwd: project.dir, env: ENV });
  const edit = async (file: string, from: string, to: string) => {
    const path = join(project.dir, file);
    const text = await readFile(path, 'utf8');
    expect(text).toContain(from);
    await writeFile(path, text.replace(from, to));
  };

  beforeAll(async () => {
    sim = await startSim();
    counter = await countingServer();
    project = await makeProject({
      'driftcheck.config.yaml': config(sim.url),
      'suites/demo/judged.yaml': JUDGED('must mention "receipt"'),
    });
    await copyFromRepo(project.dir, 'suites/demo', 'baselines');
    const run = await cli(['run', 'suites/demo', '--reporter', 'json']);
    expect(run.code, run.stderr).toBe(1);
    sourceDir = runDirFrom(run, project.dir);
    source = await readReport(sourceDir);
    // The night as it was: refund-window failed its contains, arithmetic passed, both judges passed.
    expect(entry(source, 'support-demo/refund-window').status).toBe('fail');
    expect(entry(source, 'direct-demo/arithmetic').status).toBe('pass');
    expect(entry(source, 'judged/same-judge').status).toBe('pass');
    expect(entry(source, 'judged/changed-judge').status).toBe('pass');

    // Today's suites: one failing check made to pass, one passing made to fail, a judge's
    // rubric changed, a case added, a case removed. The services now point at a server that
    // counts any request at all.
    await edit('suites/demo/support.yaml', '      - contains: 30 days', '      - contains: 14 days');
    await edit('suites/demo/direct.yaml', '      - contains: "42"', '      - contains: "43"');
    await writeFile(join(project.dir, 'suites/demo/judged.yaml'), JUDGED('must mention "14 days"'));
    await edit(
      'suites/demo/support.yaml',
      '  - id: order-json',
      '  - id: added-since\n    prompt: Is there a loyalty programme?\n    expect:\n      - non_empty: true\n\n  - id: order-json',
    );
    await edit(
      'suites/demo/direct.yaml',
      '  - id: confirm\n    prompt: "Reply with the word YES if you can read this."\n    expect:\n      - icontains: "yes"\n',
      '',
    );
    await writeFile(join(project.dir, 'driftcheck.config.yaml'), config(counter.url));
  }, 60_000);

  afterAll(async () => {
    await project.cleanup();
    await sim.stop();
    await counter.close();
  });

  it('writes a new run folder with the changed verdicts, sends nothing, and exits by the verdict', async () => {
    const before = (await sim.stats()).completions;
    const result = await cli(['recheck', sourceDir, '--reporter', 'json,console']);
    // Nothing reached either server: not a completion, not a model list.
    expect(counter.count()).toBe(0);
    expect((await sim.stats()).completions).toBe(before);

    expect(result.code, result.stderr).toBe(1);
    const dir = runDirFrom(result, project.dir);
    expect(dir).not.toBe(sourceDir);
    const report = await readReport(dir);
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(report.run.id).not.toBe(source.run.id);
    expect(report.run.provenance).toMatchObject({ rendered_by: 'recheck', recheck_of: source.run.id });
    expect(report.run.exit_code).toBe(1);
    expect(result.stderr).toContain(`recheck of run ${source.run.id}:`);
    expect(result.stderr).toContain('nothing sent');
    expect(result.stdout).toContain(`recheck of run ${source.run.id}: its stored answers checked`);

    // The changed checks decide today's verdicts on the same stored answers.
    const refund = entry(report, 'support-demo/refund-window');
    expect(refund.status).toBe('pass');
    expect(refund.content).toBe(entry(source, 'support-demo/refund-window').content);
    const arithmetic = entry(report, 'direct-demo/arithmetic');
    expect(arithmetic.status).toBe('fail');
    expect(arithmetic.checks[0]?.message).toMatch(/expected content to contain "43"/);
    expect(result.stdout).toMatch(/✗ direct-demo\/arithmetic fail/);
    // What the stored night said of what did not change stays: the errors stay errors.
    expect(entry(report, 'support-demo/warranty').status).toBe('error');
    expect(entry(report, 'direct-demo/release-notes').status).toBe('fail');
  });

  it("keeps an unchanged judge's stored verdict and marks a changed one as needing a call (not a pass)", async () => {
    const result = await cli(['recheck', sourceDir, '--reporter', 'json']);
    expect(counter.count()).toBe(0);
    expect(result.code).toBe(1);
    const report = await readReport(runDirFrom(result, project.dir));
    const same = entry(report, 'judged/same-judge');
    expect(same.status).toBe('pass');
    const kept = same.checks.find((c) => c.type === 'judge');
    const stored = entry(source, 'judged/same-judge').checks.find((c) => c.type === 'judge');
    expect(kept?.judge?.verdict).toBe('pass');
    expect(kept).toEqual(stored);

    const changed = entry(report, 'judged/changed-judge');
    expect(changed.status).toBe('fail');
    const judge = changed.checks.find((c) => c.type === 'judge');
    expect(judge?.pass).toBe(false);
    expect(judge?.judge?.verdict).toBe('needs_call');
    expect(judge?.message).toMatch(/not evaluated: this judge is not the one run .* asked/);
    expect(result.stderr).toMatch(/1 verdict\(s\) kept from run .*; 1 judge check\(s\) need a call/);
  });

  it('lists a case added since as not run, and a case removed since as dropped', async () => {
    const result = await cli(['recheck', sourceDir, '--reporter', 'json']);
    const report = await readReport(runDirFrom(result, project.dir));
    expect(entry(report, 'support-demo/added-since').status).toBe('not_run');
    expect(report.cases.some((c) => c.id === 'direct-demo/confirm')).toBe(false);
    expect(report.run.recheck).toEqual({
      of: source.run.id,
      not_answered: [
        { case: 'support-demo/added-since', reason: `not in run ${source.run.id} (added since)` },
      ],
      dropped: ['direct-demo/confirm'],
    });
    expect(result.stderr).toMatch(
      /not run: 1 case of today's suites with no stored answer\n {2}support-demo\/added-since: not in run/,
    );
    expect(result.stderr).toMatch(
      /dropped: 1 case with stored answers no longer in today's suites\n {2}direct-demo\/confirm/,
    );
  });

  it("exits 0 when today's checks pass every stored answer it rechecks", async () => {
    // The table suite alone: every stored answer passes today's checks.
    const result = await cli(['recheck', sourceDir, 'suites/demo/tables.yaml', '--reporter', 'json']);
    expect(counter.count()).toBe(0);
    expect(result.code, result.stderr).toBe(0);
    const report = await readReport(runDirFrom(result, project.dir));
    expect(report.summary).toMatchObject({ cases: 6, passed: 6, not_run: 0 });
    expect(report.run.recheck?.dropped).toContain('support-demo/refund-window');
    // Its cases come from table rows: their prompts are made again from the table for the report.
    expect(report.cases.every((c) => (c.messages.at(-1)?.content?.length ?? 0) > 0)).toBe(true);
  });

  it('is never a baseline: baseline accept refuses it (exit 2), even with --force, and recheck has no --update-baselines', async () => {
    const result = await cli(['recheck', sourceDir, '--reporter', 'json']);
    const dir = runDirFrom(result, project.dir);
    const baselines = await readTree(join(project.dir, 'baselines'));
    for (const args of [[], ['--force']]) {
      const accept = await cli(['baseline', 'accept', dir, ...args]);
      expect(accept.code).toBe(2);
      expect(accept.stderr).toContain(`is a recheck of run ${source.run.id}`);
      expect(accept.stderr).toContain('not even with --force');
    }
    const update = await cli(['recheck', sourceDir, '--update-baselines']);
    expect(update.code).toBe(2);
    expect(update.stderr).toContain('recheck never updates baselines');
    expect(await readTree(join(project.dir, 'baselines'))).toEqual(baselines);
    // Nor is it a night, nor a run to resume.
    const history = await cli(['history', 'add', 'history', dir]);
    expect(history.code).toBe(2);
    expect(history.stderr).toContain('not a night');
    const resume = await cli(['run', '--resume', dir]);
    expect(resume.code).toBe(2);
    expect(resume.stderr).toContain('nothing to resume');
    expect(counter.count()).toBe(0);
  });

  it('passes over a damaged stored line and says so (recheck and report), never exit 70', async () => {
    const damaged = join(project.dir, 'reports/damaged');
    await cp(sourceDir, damaged, { recursive: true });
    const file = join(damaged, 'results.jsonl');
    let samples = 0;
    const lines = (await readFile(file, 'utf8')).split('\n').map((line) => {
      if (!line || JSON.parse(line).type !== undefined) return line;
      const sample = JSON.parse(line);
      samples++;
      // A hand edit: one sample whose checks are not a list, one whose answer is not text.
      if (samples === 1) sample.checks = 'all good';
      if (samples === 2) sample.content = 12345;
      return JSON.stringify(sample);
    });
    await writeFile(file, lines.join('\n'));
    const recheck = await cli(['recheck', 'reports/damaged', '--reporter', 'json']);
    expect(recheck.code, recheck.stderr).toBe(1);
    expect(recheck.stderr).toMatch(/passed over 2 unreadable journal line\(s\)/);
    expect(recheck.stderr).toMatch(/not run: \d+ cases? of today's suites with no stored answer/);
    const report = await cli(['report', 'reports/damaged', '--reporter', 'json']);
    expect(report.code, report.stderr).toBe(1);
    expect(report.stderr).toMatch(/passed over 2 unreadable journal line\(s\)/);
    expect(counter.count()).toBe(0);
  });

  it("refuses a journal it cannot match with today's suites, naming it: driftcheck 0.1's, and one with no run record (exit 2)", async () => {
    const legacy = join(project.dir, 'reports/v01');
    await cp(join(import.meta.dirname, '../fixtures/v01/run'), legacy, { recursive: true });
    const old = await cli(['recheck', 'reports/v01']);
    expect(old.code, old.stderr).toBe(2);
    expect(old.stderr).toContain('reports/v01/results.jsonl');
    expect(old.stderr).toMatch(/a journal of driftcheck 0\.1, which records no plan/);

    const headless = join(project.dir, 'reports/headless');
    await cp(sourceDir, headless, { recursive: true });
    const file = join(headless, 'results.jsonl');
    const kept = (await readFile(file, 'utf8'))
      .split('\n')
      .filter((line) => line && JSON.parse(line).type !== 'run');
    await writeFile(file, `${kept.join('\n')}\n`);
    const none = await cli(['recheck', 'reports/headless']);
    expect(none.code, none.stderr).toBe(2);
    expect(none.stderr).toContain('reports/headless/results.jsonl');
    expect(none.stderr).toMatch(/no run record/);
    expect(counter.count()).toBe(0);
  });

  it('answers --help with exit 0 and examples', async () => {
    const help = await cli(['recheck', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: driftcheck recheck RUN_DIR/);
    expect(help.stdout).toContain('Examples:');
  });
});
