import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFromRepo, makeProject, readTree } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

/**
 * Files driftcheck wrote earlier (report.json, run.json, results.jsonl, a baseline), edited
 * by hand, handed back to the commands that read them: a refusal (exit 2) naming the file,
 * the JSON path of the bad field and what to do — never an internal error (exit 70).
 */
let pristine: { dir: string; cleanup: () => Promise<void> };
let runDir = '';
const scratch: (() => Promise<void>)[] = [];

beforeAll(async () => {
  pristine = await makeProject();
  await copyFromRepo(pristine.dir, 'suites', 'baselines', 'driftcheck.config.yaml');
  const made = await runMain(['run', '--sim', 'suites/demo', '--history', 'hist', '--history-force'], {
    cwd: pristine.dir,
  });
  expect(made.code, made.stderr).toBe(1);
  await rm(join(pristine.dir, 'reports/latest'), { recursive: true, force: true });
  runDir = `reports/${(await readdir(join(pristine.dir, 'reports')))[0]}`;
}, 60_000);

afterAll(async () => {
  for (const clean of scratch) await clean();
  await pristine?.cleanup();
});

/** A copy of the project, its file `name` edited by `edit`. */
async function projectWith(name: string, edit: (text: string) => string): Promise<string> {
  const copy = await makeProject();
  scratch.push(copy.cleanup);
  await cp(pristine.dir, copy.dir, { recursive: true });
  const file = join(copy.dir, name);
  await writeFile(file, edit(await readFile(file, 'utf8')));
  return copy.dir;
}

type Entry = Record<string, unknown>;
const entryOf = (line: string) => JSON.parse(line.trim().replace(/,$/, '')) as Entry;

/** report.json with the first case line (driftcheck writes one case a line) that `which` picks changed by `change`. */
const caseWhere = (which: (entry: Entry) => boolean, change: (entry: Entry) => void) => (text: string) => {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.startsWith('    {"id"') && which(entryOf(l)));
  const entry = entryOf(lines[i]!);
  change(entry);
  lines[i] = `    ${JSON.stringify(entry)},`;
  return lines.join('\n');
};
/** report.json with its first case line changed by `change`. */
const firstCase = (change: (entry: Entry) => void) => caseWhere(() => true, change);
const caseLine = (text: string) => text.split('\n').findIndex((l) => l.startsWith('    {"id"')) + 1;

describe('stored files edited by hand', () => {
  it('diff on a report.json whose case has no status exits 2 naming the file, line and field (a case without samples was a TypeError in baselinesOf; schema 3 restores samples)', async () => {
    const original = await readFile(join(pristine.dir, runDir, 'report.json'), 'utf8');
    const cwd = await projectWith(
      `${runDir}/report.json`,
      firstCase((c) => delete c.status),
    );
    const result = await runMain(['diff', runDir, runDir], { cwd });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      `report.json: line ${caseLine(original)}: missing required key 'status' in cases[0]`,
    );
    expect(result.stderr).toMatch(/not written by this driftcheck as it is .*driftcheck report /);
    expect(result.stderr).not.toContain('internal error');
  });

  it('baseline accept of a report.json whose case has samples: null exits 2 and writes no baseline (was a TypeError in acceptReport)', async () => {
    const cwd = await projectWith(
      `${runDir}/report.json`,
      firstCase((c) => (c.samples = null)),
    );
    const before = await readTree(join(cwd, 'baselines'));
    const result = await runMain(['baseline', 'accept', runDir, '--force'], { cwd });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(
      /report\.json: line \d+: 'cases\[0\]\.samples' must be a mapping, got nothing/,
    );
    expect(await readTree(join(cwd, 'baselines'))).toEqual(before);
  });

  it('baseline accept and diff of a report.json whose case would make a baseline the next run refuses exit 2, naming the file and the case, and write nothing of its suite', async () => {
    let edited = '';
    const cwd = await projectWith(
      `${runDir}/report.json`,
      // An answered case: an errored one (the demo's first, a loop stopped at max_steps)
      // gives its baseline no latency to refuse.
      caseWhere(
        (c) => c.status === 'pass',
        (c) => {
          edited = c.id as string;
          // A line keeps only what it cannot derive: here the answered latency's median.
          (c.stats as { latency_ms: { p50: number } }).latency_ms.p50 = -1;
        },
      ),
    );
    const before = await readTree(join(cwd, 'baselines'));
    const accept = await runMain(['baseline', 'accept', runDir, '--force'], { cwd });
    expect(accept.code, accept.stderr).toBe(2);
    expect(accept.stderr).toContain(`report.json: case ${edited} would make a baseline that`);
    expect(accept.stderr).toContain('latency_ms.p50');
    expect(await readTree(join(cwd, 'baselines'))).toEqual(before);
    // diff takes run A's answers as the baselines of B: the same refusal, naming A's report.json.
    const diff = await runMain(['diff', runDir, runDir], { cwd });
    expect(diff.code, diff.stderr).toBe(2);
    expect(diff.stderr).toContain(`report.json: case ${edited} would make a baseline that`);
  });

  it('diff of a report.json whose suite id could name a file elsewhere exits 2 naming that report.json, not a file of its own', async () => {
    const cwd = await projectWith(`${runDir}/report.json`, (text) =>
      text.replaceAll('"direct-demo"', '"../evil"').replaceAll('"direct-demo/', '"../evil/'),
    );
    const diff = await runMain(['diff', runDir, runDir], { cwd });
    expect(diff.code, diff.stderr).toBe(2);
    expect(diff.stderr).toContain(
      `${runDir}/report.json: suite id "../evil" cannot be used as a baseline file name`,
    );
    expect(diff.stderr).not.toMatch(/evil\.json/);
    expect(diff.stderr).toContain(`→ re-render it from its run's journal (driftcheck report ${runDir})`);
  });

  it('history add of a report.json whose suites is a string exits 2 and appends nothing (was a TypeError in readRunForHistory)', async () => {
    const cwd = await projectWith(`${runDir}/report.json`, (text) =>
      text.replace(/\n {2}"suites": \[[\s\S]*?\n {2}\],\n/, '\n  "suites": "support-demo",\n'),
    );
    const before = await readTree(join(cwd, 'hist'));
    const result = await runMain(['history', 'add', 'fresh-hist', runDir, '--force'], { cwd });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain("report.json: 'suites' must be a list, got text");
    expect(await readTree(join(cwd, 'fresh-hist'))).toEqual(new Map());
    expect(await readTree(join(cwd, 'hist'))).toEqual(before);
  });

  it('diff of a report.json cut in the middle of a case exits 2: not JSON', async () => {
    const cwd = await projectWith(`${runDir}/report.json`, (text) =>
      text.slice(0, text.indexOf('"checks"', 5000)),
    );
    const result = await runMain(['diff', runDir, runDir], { cwd });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/report\.json: not JSON/);
  });

  it('run --resume of a run whose run.json has config_file: [] exits 2 naming run.json and the field', async () => {
    const cwd = await projectWith(`${runDir}/run.json`, (text) =>
      JSON.stringify({ ...JSON.parse(text), config_file: [] }),
    );
    const result = await runMain(['run', '--resume', runDir], { cwd });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      "run.json: not a run.json driftcheck wrote: 'config_file' must be text or empty",
    );
  });

  it('report of a journal with a sample whose model is a number passes the line over, saying which and why', async () => {
    let line = 0;
    const cwd = await projectWith(`${runDir}/results.jsonl`, (text) =>
      text
        .split('\n')
        .map((l, i) => {
          if (line || !l.startsWith('{"key"')) return l;
          line = i + 1;
          return JSON.stringify({ ...JSON.parse(l), model: 42 });
        })
        .join('\n'),
    );
    const result = await runMain(['report', runDir], { cwd });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`passed over 1 unreadable journal line(s) (line ${line})`);
    expect(result.stderr).toContain(
      `results.jsonl: line ${line}: 'model' must be text or empty, got an integer`,
    );
    const report = JSON.parse(await readFile(join(cwd, runDir, 'report.json'), 'utf8'));
    expect(report.summary.not_run).toBe(1); // the sample passed over is sent again by --resume
  });

  it('run on a baseline whose checks hold null exits 2 naming the file and field, before anything is sent', async () => {
    const cwd = await projectWith('baselines/support-demo.json', (text) => {
      const baseline = JSON.parse(text);
      const [id] = Object.keys(baseline.cases);
      baseline.cases[id!].checks = [null];
      return JSON.stringify(baseline, null, 2);
    });
    const runs = await readdir(join(cwd, 'reports'));
    const result = await runMain(['run', '--sim', 'suites/demo'], { cwd });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(
      /support-demo\.json: the baseline does not have the expected shape: 'cases\..+\.checks\[0\]' must be a mapping/,
    );
    expect(await readdir(join(cwd, 'reports'))).toEqual(runs);
  });
});
