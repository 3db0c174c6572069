import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/io.js';
import { runCommand } from '../../src/cli/run.js';
import { UsageError } from '../../src/util/errors.js';
import { copyFromRepo, makeProject } from '../helpers/cli.js';
import { completion, type LoopbackService, sendJson, startLoopbackService } from '../hostile/loopback.js';

// `driftcheck run`'s composition root called in-process (no binary spawned): flags → request →
// plan → run → publish, against a loopback service of the test's own or the embedded
// simulator, with an IO that records what the command prints.
const KEY = `sk-or-v1-${'7'.repeat(48)}`;

function recordingIO(cwd: string, env: NodeJS.ProcessEnv = {}): CliIO & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: (text: string) => void (io.out += text),
    stderr: (text: string) => void (io.err += text),
    styled: {
      stdout: (text: string) => void (io.out += text),
      stderr: (text: string) => void (io.err += text),
    },
    env,
    cwd,
    color: false,
    tty: false,
  };
  return io;
}

/** What the command holds open that outlives it if not let go: listening servers and signal handlers. */
function held() {
  const servers = process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
  return { servers, sigint: process.listenerCount('SIGINT'), sigterm: process.listenerCount('SIGTERM') };
}

/** held() once the handles closed in this turn are gone: a server's close completes in the next turn of the loop. */
async function heldAfterClose() {
  for (let turn = 0; turn < 2; turn++) await new Promise((done) => setImmediate(done));
  return held();
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('runCommand in-process: the composition root', () => {
  it('a night against a loopback service: every case sent once, folded, published; nothing left open', async () => {
    const service: LoopbackService = await startLoopbackService((req, res) =>
      sendJson(res, 200, completion(req.prompt.includes('one') ? 'one' : 'something else')),
    );
    const project = await makeProject({
      'driftcheck.config.yaml': `services:\n  router: { kind: router, base_url: ${service.url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0 }\n`,
      'suites/night.yaml': `suite: night
service: router
model: openai/gpt-4o-mini
cases:
  - id: one
    prompt: Say one.
    expect: [{ contains: one }]
  - id: two
    prompt: Say two.
    expect: [{ contains: two }]
`,
    });
    cleanups.push(service.close, project.cleanup);
    const before = held();
    const io = recordingIO(project.dir, { OPENROUTER_API_KEY: KEY });
    const code = await runCommand(['--reporter', 'json,markdown'], io);
    expect(code, io.err).toBe(1);
    expect(service.seen.filter((r) => r.method === 'POST').map((r) => r.prompt)).toEqual([
      'Say one.',
      'Say two.',
    ]);
    expect(io.err).toMatch(/warning: suite night has no baseline yet/);
    expect(io.err).toMatch(/driftcheck: 2 cases from 1 suite → reports\/\d{8}T/);
    const runDir = join(project.dir, /report: (reports\/[^/]+)\/report\.json/.exec(io.err)![1]!);
    const report = JSON.parse(await readFile(join(runDir, 'report.json'), 'utf8'));
    expect(report.summary).toMatchObject({ cases: 2, passed: 1, failed: 1 });
    expect(existsSync(join(runDir, 'summary.md'))).toBe(true);
    expect(io.err).toMatch(/exit 1/);
    // The run folder's lock was released, the interrupt watcher disposed.
    expect(existsSync(join(runDir, '.driftcheck.lock'))).toBe(false);
    expect(await heldAfterClose()).toEqual(before);
  });

  it('a refusal after the simulator started (the estimate over --max-cost) lets go of it: nothing sent', async () => {
    const project = await makeProject({});
    cleanups.push(project.cleanup);
    await copyFromRepo(project.dir, 'suites/demo', 'baselines');
    const before = held();
    const io = recordingIO(project.dir);
    const error = await runCommand(
      ['--sim', 'suites/demo/support.yaml', '--max-cost', '0.0000001'],
      io,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(String(error)).toMatch(/the estimate for the run is \$[\d.]+, over the cap; nothing was sent/);
    expect(existsSync(join(project.dir, 'reports'))).toBe(false);
    expect(await heldAfterClose()).toEqual(before);
  });

  it('--models on the simulator: one run per candidate, compared, every compared run let go', async () => {
    const project = await makeProject({});
    cleanups.push(project.cleanup);
    await copyFromRepo(project.dir, 'suites/demo', 'baselines');
    const before = held();
    const io = recordingIO(project.dir, { DRIFTCHECK_SIM_SEED: '7' });
    const code = await runCommand(
      [
        '--sim',
        'suites/demo/direct.yaml',
        '--models',
        'kimi-k2-0905-preview,kimi-k2-turbo-preview',
        '--reporter',
        'json',
      ],
      io,
    );
    expect(code, io.err).toBe(1);
    expect(io.out).toMatch(/Candidates against the current baseline:/);
    const folders = await readdir(join(project.dir, 'reports'));
    const compare = folders.find((f) => f.startsWith('compare-'))!;
    const candidates = JSON.parse(
      await readFile(join(project.dir, 'reports', compare, 'candidates.json'), 'utf8'),
    );
    expect(candidates.candidates.map((c: { label: string }) => c.label)).toEqual([
      'kimi-k2-0905-preview',
      'kimi-k2-turbo-preview',
    ]);
    for (const c of candidates.candidates as { run_id: string }[])
      expect(existsSync(join(project.dir, 'reports', c.run_id, 'report.json'))).toBe(true);
    expect(existsSync(join(project.dir, 'reports', compare, 'compare.json'))).toBe(true);
    expect(await heldAfterClose()).toEqual(before);
  });
});
