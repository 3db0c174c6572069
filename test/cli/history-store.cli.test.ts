import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

const suite = `suite: small
service: router
model: openai/gpt-4o-mini
cases:
  - id: a
    prompt: "Say exactly: alpha"
    expect: [{ contains: alpha }]
  - id: b
    prompt: "Say exactly: beta"
    expect: [{ contains: beta }]
`;

/** The ids of the whole run lines of a history month file, in file order. */
async function runLines(dir: string, month: string): Promise<string[]> {
  const text = await readFile(join(dir, `${month}.jsonl`), 'utf8');
  return text.split('\n').flatMap((line) => {
    try {
      const record = JSON.parse(line) as { t?: string; id?: string };
      return record.t === 'run' ? [record.id!] : [];
    } catch {
      return []; // a torn line
    }
  });
}

describe('the history store shared by several processes', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  const runs: string[] = [];
  let month = '';

  beforeAll(async () => {
    project = await makeProject({ 'suites/small.yaml': suite });
    for (let i = 0; i < 4; i++) {
      const run = await runMain(['run', '--sim', '--reporter', 'json'], { cwd: project.dir });
      expect(run.code).toBe(0);
      runs.push(runDirFrom(run, project.dir));
    }
    month = /\/(\d{4})(\d{2})\d{2}T[^/]*$/.exec(runs[0]!)!.slice(1, 3).join('-');
  });
  afterAll(() => project.cleanup());

  it('four processes adding the same runs at once store each run once', async () => {
    const history = join(project.dir, 'together');
    // A month of earlier nights of a large suite: the look for the run takes a while, as it
    // does in a real store, which is when another process's append could slip in.
    const earlier = `{"t":"run","v":1,"id":"earlier","start":"${month}-01T00:00:00.000Z","end":"${month}-01T01:00:00.000Z","exit":0,"status":"completed","suites":[{"suite":"big","models":["m"],"providers":[],"baseline":null}]}\n`;
    await mkdir(history);
    await writeFile(
      join(history, `${month}.jsonl`),
      earlier +
        Array.from({ length: 30_000 }, (_, i) => `{"s":"big","c":"case-${i}","n":1,"k":1}\n`).join(''),
    );
    const four = await Promise.all(
      [1, 2, 3, 4].map(() => runMain(['history', 'add', history, ...runs.slice(0, 3)], { cwd: project.dir })),
    );
    for (const add of four) expect(add.code).toBe(0);
    const said = four.map((add) => add.stderr).join('');
    expect(said.match(/history: added run/g)).toHaveLength(3);
    expect(said.match(/is already in together; skipped/g)).toHaveLength(9);
    const ids = await runLines(history, month);
    expect(ids.sort()).toEqual(['earlier', ...runs.slice(0, 3).map((dir) => dir.split('/').pop())].sort());
  });

  it('a store whose last line was torn: the next run starts a line of its own and is counted', async () => {
    const history = join(project.dir, 'torn');
    expect((await runMain(['history', 'add', history, runs[0]!], { cwd: project.dir })).code).toBe(0);
    // A writer killed mid-line left half a run line and no newline.
    await appendFile(join(history, `${month}.jsonl`), '{"t":"run","v":1,"id":"2026');
    const add = await runMain(['history', 'add', history, runs[3]!], { cwd: project.dir });
    expect(add.code).toBe(0);

    const page = await runMain(['history', history, '--out', join(project.dir, 'trend.html')], {
      cwd: project.dir,
    });
    expect(page.code).toBe(0);
    expect(page.stderr).toMatch(/trend page: trend\.html \(2 nights, 2 cases/);
    // The fragment alone is passed over, on its own line.
    expect(page.stderr).toMatch(/torn\/\d{4}-\d{2}\.jsonl:4: .*; line skipped/);
    expect(await runLines(history, month)).toEqual([runs[0]!, runs[3]!].map((d) => d.split('/').pop()));
  });
});
