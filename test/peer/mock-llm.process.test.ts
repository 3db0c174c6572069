import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readReport, runCli, runDirFrom } from '../helpers/cli.js';

// A peer nobody here wrote: @dwmkerr/mock-llm, an OpenAI-compatible mock server from the
// registry (it echoes the last user message, and sends neither `usage` nor `created`).
// driftcheck runs a suite through it as both service kinds, as a user would.

const require = createRequire(import.meta.url);
const MAIN = join(dirname(require.resolve('@dwmkerr/mock-llm/package.json')), 'dist/main.js');
const ROUTER_KEY = `sk-or-v1-${'5eed'.repeat(16)}`;
const DIRECT_KEY = `sk-${'Peer'.repeat(12)}`;
const env = { OPENROUTER_API_KEY: ROUTER_KEY, DIRECT_API_KEY: DIRECT_KEY };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

const suite = (name: string, service: string, model: string) => `suite: ${name}
service: ${service}
model: ${model}
cases:
  - id: echo
    prompt: "Say exactly: ok"
    expect: [{ contains: ok }, { finish_reason: stop }]
  - id: number
    prompt: "The answer is 42"
    expect: [{ regex: '\\b42\\b' }]
`;

describe('@dwmkerr/mock-llm as both services', () => {
  let peer: ChildProcess;
  let cwd: string;
  let project: Awaited<ReturnType<typeof makeProject>>;

  beforeAll(async () => {
    const port = await freePort();
    cwd = await mkdtemp(join(tmpdir(), 'driftcheck-mock-llm-'));
    peer = spawn(process.execPath, [MAIN], {
      cwd,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: 'pipe',
    });
    await new Promise<void>((done, fail) => {
      let out = '';
      const seen = (d: Buffer) => {
        out += d;
        if (/listening|running|started|http:\/\//i.test(out)) done();
      };
      peer.stdout!.on('data', seen);
      peer.stderr!.on('data', seen);
      peer.once('exit', (code) => fail(new Error(`mock-llm exited (${code}): ${out}`)));
    });
    const url = `http://127.0.0.1:${port}`;
    project = await makeProject({
      'driftcheck.config.yaml': `services:
  router: { kind: router, base_url: ${url}/api/v1, api_key_env: OPENROUTER_API_KEY }
  direct: { kind: direct, base_url: ${url}/v1, api_key_env: DIRECT_API_KEY, verify_model: gpt-4 }
`,
      'suites/router.yaml': suite('peer-router', 'router', 'openai/gpt-4o-mini'),
      'suites/direct.yaml': suite('peer-direct', 'direct', 'gpt-4'),
    });
  });
  afterAll(async () => {
    peer?.kill('SIGTERM');
    await project?.cleanup();
    await rm(cwd, { recursive: true, force: true });
  });

  it('runs, records baselines without usage, and a re-run shows no drift', async () => {
    const first = await runCli(['run', '--update-baselines'], { cwd: project.dir, env });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stderr).toMatch(/baseline written: baselines\/peer-router\.json/);
    const baseline = JSON.parse(await readFile(join(project.dir, 'baselines/peer-direct.json'), 'utf8'));
    // mock-llm reports no usage: recorded as null, never invented zeros.
    expect(baseline.cases.echo).toMatchObject({ status: 'pass', usage: null, finish_reason: 'stop' });

    const again = await runCli(['run'], { cwd: project.dir, env });
    expect(again.code, again.stdout).toBe(0);
    const report = await readReport(runDirFrom(again, project.dir));
    expect(report.summary).toMatchObject({ cases: 4, passed: 4, drifted: 0 });
    expect(report.cases.map((c) => [c.id, c.model, c.usage])).toEqual([
      ['peer-direct/echo', 'gpt-4', null],
      ['peer-direct/number', 'gpt-4', null],
      ['peer-router/echo', 'openai/gpt-4o-mini', null],
      ['peer-router/number', 'openai/gpt-4o-mini', null],
    ]);
  });

  it('verify answers for both services', async () => {
    const verify = await runCli(['verify', '--model', 'gpt-4'], { cwd: project.dir, env });
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout).toMatch(/usage: not reported/);
  });
});
