import { createHash } from 'node:crypto';
import { mkdir, readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, readReport, readSamples, readTree, runDirFrom } from '../helpers/cli.js';
import { runMain, startSim } from '../helpers/main.js';
import { BROKEN_TABLES, oneTable, SAY } from '../helpers/broken-tables.js';

// A suite with a written case and two tables beside it (paths relative to the suite file).
const SUITE = `suite: tables
service: router
model: openai/gpt-4o-mini
params: { max_tokens: 256, temperature: 0 }
cases:
  - id: written
    prompt: "Say exactly: written"
    expect: [{ equals: written }]
tables:
  - path: ../data/sums.csv
    case:
      id: "sum-{{n}}"
      prompt: "{{question}}"
      expect:
        - contains: "{{answer}}"
  - path: ../data/phrases.jsonl
    case:
      id: "say-{{id}}"
      prompt: "Say exactly: {{text}}"
      expect: "{{checks}}"
      sim: "{{sim}}"
`;

// RFC 4180 the hard way: a byte-order mark, CRLF, a quoted comma, a line break inside a
// field, doubled quotes and text outside ASCII.
const SUMS =
  '\ufeffn,question,answer\r\n' +
  '1,What is 2 + 3?,5\r\n' +
  '2,"Context: apples, pears\r\nWhat is 12 + 30?",42\r\n' +
  '3,"Grüße — what is 7 * 6?",42\r\n' +
  '4,"Say exactly: ""quoted""",quoted\r\n';

const phrase = (id: string, text: string, checks: unknown[], sim: object = {}) =>
  JSON.stringify({ id, text, checks, sim });
const PHRASES = [
  phrase('hello', 'Hello there', [{ equals: 'Hello there' }]),
  phrase('unicode', 'Grüße, 世界', [{ contains: '世界' }, { finish_reason: 'stop' }]),
  phrase('number', '42', [{ equals: '42' }]),
].join('\n');

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const ALL = ['written', 'sum-1', 'sum-2', 'sum-3', 'sum-4', 'say-hello', 'say-unicode', 'say-number'];

const project = (files: Record<string, string> = {}) =>
  makeProject({
    'suites/tables.yaml': SUITE,
    'data/sums.csv': SUMS,
    'data/phrases.jsonl': `${PHRASES}\n`,
    ...files,
  });

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});
async function scratch(files: Record<string, string> = {}) {
  const p = await project(files);
  cleanups.push(p.cleanup);
  return p;
}

describe('case tables (JSONL, CSV) on the simulator', () => {
  it('validate reads every row; list shows each table and its rows', async () => {
    const { dir } = await scratch();
    const validate = await runMain(['validate'], { cwd: dir });
    expect(validate.stderr).toBe('');
    expect(validate.code).toBe(0);
    expect(validate.stdout).toMatch(/^ok: 1 suite, 8 cases \(7 rows of 2 tables\);/);

    const list = await runMain(['list'], { cwd: dir });
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n').slice(0, 3)).toEqual([
      'tables · router (router) · openai/gpt-4o-mini · 8 cases, 8 samples',
      '  table data/sums.csv: 4 rows',
      '  table data/phrases.jsonl: 3 rows',
    ]);
    expect(list.stdout).toContain(ALL.map((id) => `  tables/${id}\n`).join(''));
    // The rows are read again for what is listed: a shard and a filter see the generated ids.
    const shard = await runMain(['list', '--shard', '2/3'], { cwd: dir });
    expect(shard.stdout).toContain(
      ALL.filter((_, i) => i % 3 === 1)
        .map((id) => `  tables/${id}\n`)
        .join(''),
    );
    expect(shard.stdout).toMatch(/^3 cases, 3 samples from 1 suite$/m);
    // A shard that draws no row of a table that has some is an empty shard (exit 0); a
    // filter that matches no row selects nothing (exit 2).
    expect((await runMain(['list', '--shard', '9/9'], { cwd: dir })).code).toBe(0);
    const none = await runMain(['list', '--filter', 'nomatch'], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--filter 'nomatch' matches no case of 8/);
    const json = JSON.parse((await runMain(['list', '--json'], { cwd: dir })).stdout);
    expect(json.suites[0].tables).toEqual([
      {
        file: 'data/sums.csv',
        format: 'csv',
        rows: 4,
        digest: sha256(SUMS.replace(/^\ufeff/, '')),
        template: expect.stringMatching(/^[0-9a-f]{64}$/),
        // The template as written: a run's journal keeps it with the table's digest.
        case: expect.objectContaining({ id: expect.any(String) }),
      },
      {
        file: 'data/phrases.jsonl',
        format: 'jsonl',
        rows: 3,
        digest: sha256(`${PHRASES}\n`),
        template: expect.stringMatching(/^[0-9a-f]{64}$/),
        // The template as written: a run's journal keeps it with the table's digest.
        case: expect.objectContaining({ id: expect.any(String) }),
      },
    ]);
    // The two tables' templates differ: each digest is its own template's.
    expect(json.suites[0].tables[0].template).not.toBe(json.suites[0].tables[1].template);
  });

  it('runs every row as a case; quoted commas, line breaks, quotes and unicode reach the prompt as written', async () => {
    const { dir } = await scratch();
    const run = await runMain(['run', '--sim'], { cwd: dir });
    expect(run.code).toBe(0);
    const report = await readReport(runDirFrom(run, dir));
    expect(report.cases.map((c) => c.case)).toEqual(ALL);
    expect(report.cases.filter((c) => c.status !== 'pass').map((c) => c.case)).toEqual([]);
    const prompt = (id: string) => report.cases.find((c) => c.case === id)?.messages.at(-1)?.content;
    expect(prompt('sum-2')).toBe('Context: apples, pears\r\nWhat is 12 + 30?');
    expect(prompt('sum-3')).toBe('Grüße — what is 7 * 6?');
    expect(prompt('sum-4')).toBe('Say exactly: "quoted"');
    expect(prompt('say-unicode')).toBe('Say exactly: Grüße, 世界');
    // The JSONL row's list of checks arrived as a list: two checks, not one text.
    expect(report.cases.find((c) => c.case === 'say-unicode')?.checks.map((c) => c.type)).toEqual([
      'contains',
      'finish_reason',
    ]);
  });

  it('--filter and --shard select generated ids', async () => {
    const { dir } = await scratch();
    const filtered = await runMain(['run', '--sim', '--filter', 'tables/sum-*'], { cwd: dir });
    expect(filtered.code).toBe(0);
    expect((await readReport(runDirFrom(filtered, dir))).cases.map((c) => c.case)).toEqual([
      'sum-1',
      'sum-2',
      'sum-3',
      'sum-4',
    ]);
    const byId = await runMain(['run', '--sim', '--filter', 'say-unicode'], { cwd: dir });
    expect((await readReport(runDirFrom(byId, dir))).cases.map((c) => c.case)).toEqual(['say-unicode']);

    const shards: string[][] = [];
    for (const shard of ['1/2', '2/2']) {
      const run = await runMain(['run', '--sim', '--shard', shard], { cwd: dir });
      expect(run.code).toBe(0);
      shards.push((await readReport(runDirFrom(run, dir))).cases.map((c) => c.case));
    }
    expect(shards[0]!.length + shards[1]!.length).toBe(ALL.length);
    expect([...shards[0]!, ...shards[1]!].sort()).toEqual([...ALL].sort());
  });

  it('baseline accept keys generated cases; a changed answer of a row then regresses, goes into the history, and report re-renders it', async () => {
    const { dir } = await scratch();
    const first = await runMain(['run', '--sim'], { cwd: dir });
    expect(first.stderr).toContain('suite tables has no baseline yet');
    // --force: a simulator run is accepted only when asked to (the baseline records what it was).
    const accept = await runMain(['baseline', 'accept', runDirFrom(first, dir), '--force'], { cwd: dir });
    expect(accept.code).toBe(0);
    const baseline = JSON.parse(await readFile(join(dir, 'baselines/tables.json'), 'utf8'));
    expect(Object.keys(baseline.cases).sort()).toEqual([...ALL].sort());

    // Tonight the row `hello` gets another answer from the simulator.
    const changed = PHRASES.replace(
      phrase('hello', 'Hello there', [{ equals: 'Hello there' }]),
      phrase('hello', 'Hello there', [{ equals: 'Hello there' }], { reply: 'Goodbye' }),
    );
    expect(changed).not.toBe(PHRASES);
    await writeFile(join(dir, 'data/phrases.jsonl'), changed);
    // --history-force: a simulator run is no night; appended only when asked to.
    const second = await runMain(['run', '--sim', '--history', 'history', '--history-force'], { cwd: dir });
    expect(second.code).toBe(1);
    const history = (await readTree(join(dir, 'history'))).values().next().value ?? '';
    const line = history.split('\n').find((l) => l.includes('"c":"say-hello"'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({ s: 'tables', c: 'say-hello', n: 1, k: 0 });
    expect(second.stderr).not.toContain('no baseline');
    const runDir = runDirFrom(second, dir);
    const report = await readReport(runDir);
    const hello = report.cases.find((c) => c.case === 'say-hello');
    expect(hello?.status).toBe('fail');
    expect(hello?.drift.map((d) => d.kind)).toContain('regressed');
    expect(report.cases.filter((c) => c.status !== 'pass').map((c) => c.case)).toEqual(['say-hello']);

    const again = await runMain(['report', runDir], { cwd: dir });
    expect(again.code).toBe(1);
    const rendered = await readReport(runDir);
    expect(rendered.cases.map((c) => [c.case, c.status])).toEqual(
      report.cases.map((c) => [c.case, c.status]),
    );
  });

  it('--resume finishes a paused table-driven run, sending only the rows not yet run', async () => {
    const { dir } = await scratch();
    const env = { OPENROUTER_API_KEY: `sk-or-v1-${'a1b2c3d4'.repeat(8)}` };
    const config = (url: string) =>
      writeFile(
        join(dir, 'driftcheck.config.yaml'),
        `services:\n  router: { kind: router, base_url: ${url}/api/v1, api_key_env: OPENROUTER_API_KEY }\n`,
      );
    const limited = await startSim(['--credit-after', '3']);
    cleanups.push(limited.stop);
    await config(limited.url);
    const first = await runMain(['run', '--concurrency', '1'], { cwd: dir, env });
    expect(first.code).toBe(3);
    const runDir = runDirFrom(first, dir);
    const done = (await readSamples(runDir)).map((s) => s.case);
    expect(done).toHaveLength(3);

    const topped = await startSim();
    cleanups.push(topped.stop);
    await config(topped.url);
    const second = await runMain(['run', '--resume'], { cwd: dir, env });
    expect(second.code).toBe(0);
    expect(runDirFrom(second, dir)).toBe(runDir);
    const report = await readReport(runDir);
    expect(report.summary).toMatchObject({ cases: 8, passed: 8, not_run: 0 });
    const sent = Object.keys((await topped.stats()).byCase).map((k) => k.replace(/^tables\/|#0$/g, ''));
    expect(sent.sort()).toEqual(ALL.filter((id) => !done.includes(id)).sort());
  });

  it('pin rewrites the model of a table-driven suite, tables untouched', async () => {
    const { dir } = await scratch({
      'suites/tables.yaml': SUITE.replace('openai/gpt-4o-mini', '~anthropic/claude-opus-latest'),
    });
    expect((await runMain(['validate'], { cwd: dir })).code).toBe(2);
    const pin = await runMain(['pin', 'suites/tables.yaml', '--sim'], { cwd: dir });
    expect(pin.code).toBe(0);
    expect(await readFile(join(dir, 'suites/tables.yaml'), 'utf8')).toBe(
      SUITE.replace('openai/gpt-4o-mini', 'anthropic/claude-opus-4.5'),
    );
    expect((await runMain(['run', '--sim'], { cwd: dir })).code).toBe(0);
  });
});

describe('case tables: every problem names its file and line, exit 2, nothing sent', () => {
  it.each(BROKEN_TABLES)('$name', async ({ files, suite, expected }) => {
    const { dir, cleanup } = await makeProject({ 'suites/t.yaml': suite, ...files });
    cleanups.push(cleanup);
    const validate = await runMain(['validate'], { cwd: dir });
    expect(validate.code, validate.stderr).toBe(2);
    for (const line of expected) expect(validate.stderr).toContain(line);
    const run = await runMain(['run', '--sim'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(validate.stderr.replace('driftcheck validate:', 'driftcheck run:'));
  });

  it('a judge named only in a row is checked against the config: validate, which keeps no case, says what run says', async () => {
    const judged = JSON.stringify({
      id: 'a',
      text: 'x',
      checks: [{ judge: { model: 'openai/gpt-4o-mini', service: 'grader', rubric: 'kind' } }],
    });
    const { dir, cleanup } = await makeProject({
      'suites/t.yaml': oneTable('../data/t.jsonl', `${SAY}      expect: "{{checks}}"\n`),
      'data/t.jsonl': `{"id": "b", "text": "y", "checks": []}\n${judged}\n`,
    });
    cleanups.push(cleanup);
    const validate = await runMain(['validate'], { cwd: dir });
    expect(validate.code).toBe(2);
    expect(validate.stderr).toMatch(/suites\/t\.yaml:1:\d+: service 'grader' is not configured/);
    const run = await runMain(['run', '--sim'], { cwd: dir });
    expect(run.code).toBe(2);
    // run says first that the suite has no baseline yet.
    expect(run.stderr).toContain(validate.stderr.replace('driftcheck validate:', 'driftcheck run:'));
  });

  it('refuses a table over the size limit before reading it', async () => {
    const { dir, cleanup } = await makeProject({ 'suites/t.yaml': oneTable('../data/big.jsonl', SAY) });
    cleanups.push(cleanup);
    // Sparse: the size is on record, no disk is spent.
    await mkdir(join(dir, 'data'));
    await writeFile(join(dir, 'data/big.jsonl'), '');
    await truncate(join(dir, 'data/big.jsonl'), 64 * 1024 * 1024 + 1);
    const validate = await runMain(['validate'], { cwd: dir });
    expect(validate.code).toBe(2);
    expect(validate.stderr).toContain(
      'data/big.jsonl: file is too large: more than the 64 MiB driftcheck reads of a table (reading stopped there)',
    );
  });
});
