import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, readReport, readSamples, runDirFrom } from '../helpers/cli.js';
import { runMain, startSim } from '../helpers/main.js';

// A suite whose cases all come from one JSONL table (issue 19, item 2): what its journal
// holds of the table, and what `--resume`, `report` and `merge` make of that journal.
const SUITE = `suite: tickets
service: router
model: openai/gpt-4o-mini
params: { max_tokens: 64 }
tables:
  - path: tickets.jsonl
    case:
      id: "t-{{n}}"
      prompt: "Say exactly: {{text}}"
      expect:
        - contains: "{{text}}"
`;
const rows = (n: number, text = (i: number) => `ticket ${i}`) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ n: i + 1, text: text(i + 1) })).join('\n') + '\n';

const KEY = { OPENROUTER_API_KEY: `sk-or-v1-${'a1b2c3d4'.repeat(8)}` };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function project(count = 6) {
  const p = await makeProject({ 'suites/tickets.yaml': SUITE, 'suites/tickets.jsonl': rows(count) });
  cleanups.push(p.cleanup);
  return p.dir;
}

/** Points the router at a simulator process of the test's own (started with `args`). */
async function simulator(dir: string, args: string[] = []) {
  const sim = await startSim(args);
  cleanups.push(sim.stop);
  await writeFile(
    join(dir, 'driftcheck.config.yaml'),
    `services:\n  router: { kind: router, base_url: ${sim.url}/api/v1, api_key_env: OPENROUTER_API_KEY }\n`,
  );
  return sim;
}

/** The journal's plan lines, as written on disk. */
async function planLines(runDir: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(join(runDir, 'results.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => r.type === 'plan');
}

describe('a table-driven run and its journal', () => {
  it('the plan record names the table with its row count and digest', async () => {
    const dir = await project();
    await simulator(dir);
    const run = await runMain(['run'], { cwd: dir, env: KEY });
    expect(run.code).toBe(0);
    const [plan] = await planLines(runDirFrom(run, dir));
    expect(plan?.tables).toEqual([
      {
        file: 'suites/tickets.jsonl',
        format: 'jsonl',
        rows: 6,
        digest: expect.stringMatching(/^[0-9a-f]{64}$/),
        template: expect.stringMatching(/^[0-9a-f]{64}$/),
        case: { id: 't-{{n}}', prompt: 'Say exactly: {{text}}', expect: [{ contains: '{{text}}' }] },
      },
    ]);
    // Each case holds its row's place, not its messages (journal 5): the table makes them again.
    // And the digest of what it sent (journal 6), which a recheck matches its answers by.
    const sent = expect.stringMatching(/^[\w-]{12}$/);
    expect((plan?.cases as unknown[]).slice(0, 2)).toEqual([
      { id: 't-1', ordinal: 0, repeat: 1, row: [0, 1], sent },
      { id: 't-2', ordinal: 1, repeat: 1, row: [0, 2], sent },
    ]);
    expect((await readReport(runDirFrom(run, dir))).cases[1]?.messages.at(-1)?.content).toBe(
      'Say exactly: ticket 2',
    );
  });

  it('--resume refuses a table that changed since the run started, naming it; the results already in stay', async () => {
    const dir = await project();
    const limited = await simulator(dir, ['--credit-after', '2']);
    const first = await runMain(['run', '--concurrency', '1'], { cwd: dir, env: KEY });
    expect(first.code).toBe(3);
    const runDir = runDirFrom(first, dir);
    const journal = await readFile(join(runDir, 'results.jsonl'), 'utf8');
    expect(await readSamples(runDir)).toHaveLength(2);
    await limited.stop();

    // The same ids, other prompts: resuming would mix two tables' answers in one run.
    await writeFile(
      join(dir, 'suites/tickets.jsonl'),
      rows(6, (i) => `ticket ${i} (edited)`),
    );
    const topped = await simulator(dir);
    const resumed = await runMain(['run', '--resume', runDir], { cwd: dir, env: KEY });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain(
      'suites/tickets.jsonl: table of suite tickets changed since the run started',
    );
    expect(resumed.stderr).toContain('the results already journaled are kept');
    expect(Object.keys((await topped.stats()).byCase)).toEqual([]);
    expect(await readFile(join(runDir, 'results.jsonl'), 'utf8')).toBe(journal);

    // Restored, the same resume goes on and sends only what was not sent.
    await writeFile(join(dir, 'suites/tickets.jsonl'), rows(6));
    const again = await runMain(['run', '--resume', runDir], { cwd: dir, env: KEY });
    expect(again.code).toBe(0);
    expect(Object.keys((await topped.stats()).byCase)).toHaveLength(4);
    expect((await readReport(runDir)).summary).toMatchObject({ cases: 6, passed: 6, not_run: 0 });
  });

  it('report and merge work from the journals of table-driven shards; prompts come from the unchanged table, and without it are said to be missing', async () => {
    const dir = await project();
    await simulator(dir);
    const shards: string[] = [];
    for (const shard of ['1/2', '2/2']) {
      const run = await runMain(['run', '--shard', shard, '--report-dir', `reports/${shard[0]}`], {
        cwd: dir,
        env: KEY,
      });
      expect(run.code).toBe(0);
      shards.push(runDirFrom(run, dir));
    }
    const merged = await runMain(['merge', ...shards, '--out', 'merged'], { cwd: dir });
    expect(merged.code).toBe(0);
    const whole = await readReport(join(dir, 'merged'));
    expect(whole.cases.map((c) => c.case)).toEqual(['t-1', 't-2', 't-3', 't-4', 't-5', 't-6']);
    expect(whole.cases.find((c) => c.case === 't-4')?.messages.at(-1)?.content).toBe('Say exactly: ticket 4');

    // The journal keeps the template: with the suite file gone, the table alone gives the prompts.
    await rm(join(dir, 'suites/tickets.yaml'));
    const alone = await runMain(['report', shards[1]!], { cwd: dir });
    expect(alone.code).toBe(0);
    expect(alone.stderr).not.toContain('not shown');
    expect((await readReport(shards[1]!)).cases.map((c) => c.messages.at(-1)?.content)).toEqual([
      'Say exactly: ticket 2',
      'Say exactly: ticket 4',
      'Say exactly: ticket 6',
    ]);

    // The table changed: every verdict and answer is still folded from the journals, and the
    // prompts the table would now make are not passed off as the ones sent.
    await writeFile(join(dir, 'suites/tickets.jsonl'), 'not a table any more\n');
    const report = await runMain(['report', shards[0]!], { cwd: dir });
    expect(report.code).toBe(0);
    expect(report.stderr).toContain(
      "driftcheck report: the prompts of suite tickets's table cases are not shown: suites/tickets.jsonl changed since the run; everything else of them is reported, and restoring the table as it was at the run shows them again\n",
    );
    // A table that is no longer UTF-8: re-saving it could not match the run's digest; only
    // restoring it can.
    await writeFile(join(dir, 'suites/tickets.jsonl'), Buffer.from([0xff, 0xfe, 0x41, 0x0a]));
    const unreadable = await runMain(['report', shards[0]!], { cwd: dir });
    expect(unreadable.code).toBe(0);
    expect(unreadable.stderr).toContain(
      'suites/tickets.jsonl: file is not valid UTF-8; everything else of them is reported, and restoring the table as it was at the run shows them again\n',
    );
    // Run from another folder, the table's path names nothing: the line says where to run it.
    const elsewhere = await runMain(['report', shards[0]!], { cwd: tmpdir() });
    expect(elsewhere.code).toBe(0);
    expect(elsewhere.stderr).toContain(
      'suites/tickets.jsonl: no such file or folder; everything else of them is reported, and running it from the folder the run was started in (a table’s path is taken from there), or restoring the table as it was at the run, shows them again\n',
    );
    const without = await readReport(shards[0]!);
    expect(without.cases.map((c) => [c.case, c.status, c.messages])).toEqual([
      ['t-1', 'pass', []],
      ['t-3', 'pass', []],
      ['t-5', 'pass', []],
    ]);
    const again = await runMain(['merge', ...shards, '--out', 'merged2'], { cwd: dir });
    expect(again.code).toBe(0);
    expect((await readReport(join(dir, 'merged2'))).summary).toEqual(whole.summary);

    // The table gone: said as such, not as a change.
    await rm(join(dir, 'suites/tickets.jsonl'));
    const gone = await runMain(['report', shards[0]!], { cwd: dir });
    expect(gone.code).toBe(0);
    expect(gone.stderr).toContain(
      "the prompts of suite tickets's table cases are not shown: suites/tickets.jsonl: no such file or folder;",
    );
  });
});
