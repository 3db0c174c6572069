import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/stored/report/types.js';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

const CONFIG = `services:
  router: { kind: router, base_url: http://127.0.0.1:9/api/v1, api_key_env: OPENROUTER_API_KEY }
`;

/** A table suite whose template's check is `check` (each row's word is the answer the simulator gives). */
const SUITE = (check: string) => `suite: rows
service: router
model: openai/gpt-4o-mini
system: Answer with one word.
tables:
  - path: rows.csv
    case:
      id: "q-{{n}}"
      prompt: "Say exactly: {{word}}"
      sim: { reply: "{{word}}" }
      expect:
        - ${check}
`;

const ROWS = 'n,word\n1,alpha\n2,beta\n3,gamma\n';

const statuses = (report: Report) => Object.fromEntries(report.cases.map((c) => [c.id, c.status]));

/** `driftcheck recheck RUN_DIR` in the project `cwd`, which must exit `code`: its stderr, its run folder and the report there. */
async function recheck(cwd: string, runDir: string, code: number) {
  const result = await runMain(['recheck', runDir, '--reporter', 'json'], { cwd });
  expect(result.code, result.stderr).toBe(code);
  const dir = runDirFrom(result, cwd);
  return { stderr: result.stderr, dir, report: await readReport(dir) };
}

describe('driftcheck recheck of a table suite: each row matched by what it sends', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let sourceDir: string;
  let runId: string;
  const cli = (args: string[]) => runMain(args, { cwd: project.dir });
  const write = (file: string, text: string) => writeFile(join(project.dir, file), text);

  beforeAll(async () => {
    project = await makeProject({
      'driftcheck.config.yaml': CONFIG,
      'suites/rows.yaml': SUITE('contains: "{{word}}"'),
      'suites/rows.csv': ROWS,
    });
    const run = await cli(['run', '--sim', 'suites', '--reporter', 'json']);
    expect(run.code, run.stderr).toBe(0);
    sourceDir = runDirFrom(run, project.dir);
    runId = (await readReport(sourceDir)).run.id;
  }, 60_000);

  afterAll(() => project.cleanup());

  it("re-scores every row when only the template's check changed (nothing not run)", async () => {
    await write('suites/rows.yaml', SUITE('equals: "{{word}}!"'));
    await write('suites/rows.csv', ROWS);
    const result = await recheck(project.dir, sourceDir, 1);
    expect(result.stderr).toContain(`recheck of run ${runId}: 3 stored answers checked again`);
    expect(result.stderr).not.toContain('not run:');
    const { report } = result;
    expect(report.run.recheck?.not_answered).toEqual([]);
    expect(statuses(report)).toEqual({ 'rows/q-1': 'fail', 'rows/q-2': 'fail', 'rows/q-3': 'fail' });
    // Today's check ran on each stored answer.
    const q2 = report.cases.find((c) => c.id === 'rows/q-2')!;
    expect(q2.checks[0]).toMatchObject({ type: 'equals', pass: false });
    expect(q2.checks[0]!.message).toContain('"beta!"');

    // A recheck of that recheck matches its rows too: its journal keeps what each row sent.
    const again = await recheck(project.dir, result.dir, 1);
    expect(again.stderr).not.toContain('not run:');
    expect(again.stderr).toContain('3 stored answers checked again');
  });

  it('leaves only an edited or added row without a stored answer; the other rows are re-scored', async () => {
    await write('suites/rows.yaml', SUITE('contains: "{{word}}"'));
    // Row 2's prompt changed, a row added on top (every line moves), row 4 added at the end.
    await write('suites/rows.csv', 'n,word\n0,zero\n1,alpha\n2,delta\n3,gamma\n4,omega\n');
    const { report, stderr } = await recheck(project.dir, sourceDir, 1);
    expect(statuses(report)).toEqual({
      'rows/q-0': 'not_run',
      'rows/q-1': 'pass',
      'rows/q-2': 'not_run',
      'rows/q-3': 'pass',
      'rows/q-4': 'not_run',
    });
    expect(report.run.recheck?.not_answered).toEqual([
      { case: 'rows/q-0', reason: `not in run ${runId} (added since)` },
      {
        case: 'rows/q-2',
        reason: `its table row changed since run ${runId}: the stored answers are to another prompt`,
      },
      { case: 'rows/q-4', reason: `not in run ${runId} (added since)` },
    ]);
    expect(stderr).toContain("not run: 3 cases of today's suites with no stored answer");
  });

  it('treats a changed system prompt as a changed prompt of every row', async () => {
    await write(
      'suites/rows.yaml',
      SUITE('contains: "{{word}}"').replace('Answer with one word.', 'Be brief.'),
    );
    await write('suites/rows.csv', ROWS);
    const { report } = await recheck(project.dir, sourceDir, 1);
    expect(statuses(report)).toEqual({ 'rows/q-1': 'not_run', 'rows/q-2': 'not_run', 'rows/q-3': 'not_run' });
  });

  it("falls back, saying so, for a journal that records no digest of a row's messages (an older driftcheck's)", async () => {
    const older = join(project.dir, 'reports/older');
    await cp(sourceDir, older, { recursive: true });
    const file = join(older, 'results.jsonl');
    const lines = (await readFile(file, 'utf8')).split('\n').map((line) => {
      if (!line) return line;
      const record = JSON.parse(line);
      if (record.type === 'run') record.journal_version = 5;
      if (record.type === 'plan') for (const c of record.cases) delete c.sent;
      return JSON.stringify(record);
    });
    await writeFile(file, lines.join('\n'));
    expect(lines.join('\n')).not.toContain('"sent"');

    // Unchanged table and template: every row matched, as before.
    await write('suites/rows.yaml', SUITE('contains: "{{word}}"'));
    await write('suites/rows.csv', ROWS);
    await recheck(project.dir, 'reports/older', 0);

    // A changed check: no row can be matched, and the reason says why.
    await write('suites/rows.yaml', SUITE('equals: "{{word}}!"'));
    const { report } = await recheck(project.dir, 'reports/older', 1);
    expect(statuses(report)).toEqual({ 'rows/q-1': 'not_run', 'rows/q-2': 'not_run', 'rows/q-3': 'not_run' });
    expect(report.run.recheck?.not_answered[0]).toEqual({
      case: 'rows/q-1',
      reason: `its table or its template changed since run ${runId}, whose journal (an older driftcheck's) does not record what each row sent, so no row's stored answers can be matched: run the suite again to recheck its rows`,
    });
  });
});

describe('driftcheck recheck of a table run whose journal is not in plan order', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  afterAll(() => project?.cleanup());

  it("checks each stored sample by its own row's expectations, a row's samples sent again coming after the others", async () => {
    const rows = ['n,word', ...['alpha', 'beta', 'gamma', 'delta', 'epsilon'].map((w, i) => `${i + 1},${w}`)];
    project = await makeProject({
      'driftcheck.config.yaml': CONFIG,
      'suites/rows.yaml': SUITE('contains: "{{word}}"'),
      'suites/rows.csv': `${rows.join('\n')}\n`,
    });
    const cli = (args: string[]) => runMain(args, { cwd: project.dir });
    const run = await cli(['run', '--sim', 'suites', '--repeat', '2', '--reporter', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const sourceDir = runDirFrom(run, project.dir);
    // The samples backwards (a row's samples come before the rows above it), and two of the
    // first rows' samples again at the end, after every other sample: each must still be
    // checked by its own row.
    const file = join(sourceDir, 'results.jsonl');
    const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
    const samples = lines.filter((line) => JSON.parse(line).type === undefined);
    const others = lines.filter((line) => JSON.parse(line).type !== undefined);
    const end = others.pop()!;
    const again = ['q-1', 'q-4'].map((id) => samples.find((line) => JSON.parse(line).case === id)!);
    await writeFile(file, [...others, ...samples.reverse(), ...again, end].join('\n'));
    // Today: row 3 removed, row 5 moved to the top, row 2's prompt changed; each row's check its own word.
    const today = ['n,word', '5,epsilon', '1,alpha', '2,bravo', '4,delta'];
    await writeFile(join(project.dir, 'suites/rows.csv'), `${today.join('\n')}\n`);
    await writeFile(join(project.dir, 'suites/rows.yaml'), SUITE('equals: "{{word}}"'));

    const result = await recheck(project.dir, sourceDir, 1);
    expect(result.stderr).toContain('8 stored answers checked again');
    const { report } = result;
    expect(statuses(report)).toEqual({
      'rows/q-5': 'pass',
      'rows/q-1': 'pass',
      'rows/q-2': 'not_run',
      'rows/q-4': 'pass',
    });
    expect(report.run.recheck?.dropped).toEqual(['rows/q-3']);
    for (const id of ['rows/q-5', 'rows/q-1', 'rows/q-4']) {
      const entry = report.cases.find((c) => c.id === id)!;
      // Both planned samples, each checked by the row's own `equals` (the repeats sent again count once).
      expect(entry.samples).toMatchObject({ planned: 2, sent: 2, passed: 2 });
      expect(entry.checks[0]).toMatchObject({ type: 'equals', pass: true });
    }
    // The recheck's journal holds every stored sample it checked, the two sent again included.
    const journal = (await readFile(join(result.dir, 'results.jsonl'), 'utf8'))
      .split('\n')
      .filter((line) => line && JSON.parse(line).type === undefined);
    expect(journal).toHaveLength(8);
  }, 60_000);
});

describe('driftcheck recheck that fails before its journal is written', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  afterAll(() => project?.cleanup());

  it('leaves no run folder of its own, and says which file to mend (exit 2)', async () => {
    const judge = 'judge: { model: openai/gpt-4o-mini, equivalent_to_baseline: true }';
    project = await makeProject({
      'driftcheck.config.yaml': CONFIG,
      'suites/rows.yaml': SUITE(judge),
      'suites/rows.csv': ROWS,
    });
    const cli = (args: string[]) => runMain(args, { cwd: project.dir });
    const run = await cli(['run', '--sim', 'suites', '--reporter', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const runs = await readdir(join(project.dir, 'reports'));
    // The baseline its equivalence judges compare with, read as today's plan is matched: broken since.
    await mkdir(join(project.dir, 'baselines'), { recursive: true });
    await writeFile(join(project.dir, 'baselines/rows.json'), '{ "suite": ');
    const result = await cli(['recheck', runDirFrom(run, project.dir), '--reporter', 'json']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('rows.json');
    expect(await readdir(join(project.dir, 'reports'))).toEqual(runs);
  }, 60_000);
});
