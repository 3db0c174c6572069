import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyFromRepo, makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain, startSim } from '../helpers/main.js';

const ROUTER_KEY = `sk-or-v1-${'a1b2c3d4'.repeat(8)}`;
const env = { OPENROUTER_API_KEY: ROUTER_KEY };

function config(baseUrl: string): string {
  return `services:\n  router: { kind: router, base_url: ${baseUrl}, api_key_env: OPENROUTER_API_KEY, retries: 0 }\n`;
}

function suite(name: string, n: number, extra = ''): string {
  const cases = Array.from(
    { length: n },
    (_, i) => `  - id: c${i}\n    prompt: "Say exactly: case ${i}"\n${extra}    expect: [{ contains: case }]`,
  );
  return `suite: ${name}\nservice: router\nmodel: openai/gpt-4o-mini\ncases:\n${cases.join('\n')}\n`;
}

const PAUSED_HINT = /paused: .*Resume with/;

describe('run edges', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  async function project(files: Record<string, string>) {
    const p = await makeProject(files);
    cleanups.push(p.cleanup);
    return p;
  }
  async function sim(args: string[] = []) {
    const s = await startSim(args);
    cleanups.push(s.stop);
    return s;
  }

  it('run suites --resume continues the newest unfinished run of those suites, sending only what did not run', async () => {
    const p = await project({
      'suites/budget.yaml': suite('budget', 8),
      'other/other.yaml': suite('other', 3),
    });
    // The router runs out of credit after 3 answers: the nightly pauses, then so does a newer run of other suites.
    const limited = await sim(['--credit-after', '3']);
    await writeFile(join(p.dir, 'driftcheck.config.yaml'), config(`${limited.url}/api/v1`));
    const nightly = await runMain(['run', 'suites', '--concurrency', '1'], { cwd: p.dir, env });
    expect(nightly.code).toBe(3);
    const nightlyDir = runDirFrom(nightly, p.dir);
    const newer = await runMain(['run', 'other', '--concurrency', '1'], { cwd: p.dir, env });
    expect(newer.code).toBe(3);
    expect(runDirFrom(newer, p.dir)).not.toBe(nightlyDir);

    // Credit topped up; the nightly's own command line with --resume appended.
    const topped = await sim();
    await writeFile(join(p.dir, 'driftcheck.config.yaml'), config(`${topped.url}/api/v1`));
    const resumed = await runMain(['run', 'suites', '--resume'], { cwd: p.dir, env });
    expect(resumed.stderr).not.toMatch(/not a run folder/);
    expect(resumed.code).toBe(0);
    expect(runDirFrom(resumed, p.dir)).toBe(nightlyDir);
    expect((await readReport(nightlyDir)).summary).toMatchObject({ cases: 8, passed: 8, not_run: 0 });
    const stats = await topped.stats();
    expect(Object.keys(stats.byCase).sort()).toEqual(
      ['c3', 'c4', 'c5', 'c6', 'c7'].map((c) => `budget/${c}#0`),
    );
    expect(stats.completions).toBe(5);

    // A run folder is still taken as one, and suites with no unfinished run say so.
    const again = await runMain(['run', '--resume', runDirFrom(newer, p.dir)], { cwd: p.dir, env });
    expect(again.code).toBe(0);
    const none = await runMain(['run', 'suites', '--resume'], { cwd: p.dir, env });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no paused or interrupted run of suites/);
  });

  it('--resume of a folder whose run.json is not one driftcheck wrote: exit 2, not an internal error', async () => {
    const p = await project({ 'reports/20261124T000000000Z-abcd/run.json': '{}\n' });
    const run = await runMain(['run', '--sim', '--resume', 'reports/20261124T000000000Z-abcd'], {
      cwd: p.dir,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/run\.json: not a run\.json driftcheck wrote/);
  });

  it('an auth failure exits 4 and says to check the key, not that the run paused; the resume it offers works once the key does', async () => {
    const server = await keyedRouter(ROUTER_KEY);
    cleanups.push(server.close);
    const p = await project({
      'suites/s.yaml': suite('s', 4),
      'driftcheck.config.yaml': config(`${server.url}/api/v1`),
    });
    const revoked = { OPENROUTER_API_KEY: `sk-or-v1-${'0'.repeat(64)}` };
    const run = await runMain(['run', '--concurrency', '1'], { cwd: p.dir, env: revoked });
    expect(run.code).toBe(4);
    expect(run.stderr).not.toMatch(PAUSED_HINT);
    expect(run.stderr).toMatch(
      /stopped: authentication failure \(auth, HTTP 401\) — check the key in OPENROUTER_API_KEY \(service 'router'\)/,
    );
    const hint =
      /Once fixed, finish this run with: (driftcheck run --resume \S+) \(the cases it stopped on are sent again\)/.exec(
        run.stderr,
      );
    expect(hint).not.toBeNull();
    expect(server.answered).toEqual([]);

    const resumed = await runMain(hint![1]!.split(' ').slice(1), { cwd: p.dir, env });
    expect(resumed.code).toBe(0);
    expect(runDirFrom(resumed, p.dir)).toBe(runDirFrom(run, p.dir));
    expect(server.answered.sort()).toEqual(['case 0', 'case 1', 'case 2', 'case 3']);
  });

  it('a wrong base_url exits 2, says to check base_url, and prints no paused line', async () => {
    const s = await sim();
    const p = await project({
      'suites/s.yaml': suite('s', 4),
      'driftcheck.config.yaml': config(`${s.url}/api/v2`),
    });
    const run = await runMain(['run', '--concurrency', '1'], { cwd: p.dir, env });
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(PAUSED_HINT);
    expect(run.stderr).toMatch(
      new RegExp(
        `stopped: endpoint not found \\(endpoint_not_found, HTTP 404\\) — check base_url of service 'router' \\(${s.url}/api/v2\\)`,
      ),
    );
  });

  it('run --models a,b whose candidates all stop on a wrong base_url exits 2, not 0', async () => {
    const s = await sim();
    const p = await project({
      'suites/s.yaml': suite('s', 2),
      'driftcheck.config.yaml': config(`${s.url}/api/v2`),
    });
    const run = await runMain(['run', '--models', 'openai/gpt-4o,meta-llama/llama-3.3-70b-instruct'], {
      cwd: p.dir,
      env,
    });
    expect(run.stdout).toMatch(/Candidates against the current baseline/);
    expect(run.stdout).toMatch(/run\s*│\s*exit 2\s*│\s*exit 2\s*│/);
    expect(run.code).toBe(2);
  });

  it('run --sim --repeat 20 with more than 10 requests in flight warns of no listener leak', async () => {
    const p = await project({});
    await copyFromRepo(p.dir, 'suites', 'baselines');
    // 16 in flight per service: over Node's 10 listeners per signal if each request added one.
    const run = await runMain(
      ['run', '--sim', '--repeat', '20', '--concurrency', '16', '--reporter', 'json'],
      {
        cwd: p.dir,
      },
    );
    expect(run.stderr).toMatch(/\d+ cases \(\d+ samples\) from/);
    expect(run.code).toBe(1); // the demo's misbehaving cases, as in `npm start`
    expect(run.stderr).not.toMatch(/MaxListenersExceededWarning|memory leak/);
  });
});

/** A router on loopback that answers only `key` and refuses any other with the router's 401. */
async function keyedRouter(key: string) {
  const answered: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.headers.authorization !== `Bearer ${key}`) {
        res.statusCode = 401;
        res.end(JSON.stringify({ error: { message: 'User not found.', code: 401 } }));
        return;
      }
      const prompt = (JSON.parse(body) as { messages: { content: string }[] }).messages.at(-1)!.content;
      const content = prompt.replace('Say exactly: ', '');
      answered.push(content);
      res.end(
        JSON.stringify({
          id: 'gen-1',
          model: 'openai/gpt-4o-mini',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
          usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
        }),
      );
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answered,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
