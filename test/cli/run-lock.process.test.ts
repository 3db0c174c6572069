import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { completion, sendJson, startLoopbackService } from '../hostile/loopback.js';
import {
  makeProject,
  readReport,
  readSamples,
  runCli,
  runDirFrom,
  spawnCli,
  startSimProcess,
} from '../helpers/cli.js';

const ROUTER_KEY = `sk-or-v1-${'a1b2c3d4'.repeat(8)}`;
const env = { OPENROUTER_API_KEY: ROUTER_KEY };
const LOCK = '.driftcheck.lock';

const config = (url: string): string =>
  `services:\n  router: { kind: router, base_url: ${url}/api/v1, api_key_env: OPENROUTER_API_KEY }\n`;

const suite = (n: number): string =>
  `suite: budget\nservice: router\nmodel: openai/gpt-4o-mini\ncases:\n${Array.from(
    { length: n },
    (_, i) => `  - id: c${i}\n    prompt: "Say exactly: case ${i}"\n    expect: [{ contains: case }]`,
  ).join('\n')}\n`;

/**
 * A router look-alike that holds every answer until the test opens it, and counts the
 * requests per prompt. A prompt asked twice opens it at once: a second process sending
 * the same cases shows up as counts, not as a test that hangs.
 */
async function startGatedService() {
  const held: (() => void)[] = [];
  let open = false;
  const counts = new Map<string, number>();
  const release = () => {
    open = true;
    for (const answer of held.splice(0)) answer();
  };
  const service = await startLoopbackService((req, res: ServerResponse) => {
    counts.set(req.prompt, (counts.get(req.prompt) ?? 0) + 1);
    const answer = () => sendJson(res, 200, completion(req.prompt.replace('Say exactly: ', '')));
    if (open) return answer();
    held.push(answer);
    if ((counts.get(req.prompt) ?? 0) > 1) release();
  });
  return { ...service, counts, release, requests: () => service.seen.length };
}

/** Waits (no deadline of its own: the test's time-out is the bound) until `ready` holds. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await sleep(20);
}

describe('one process per run folder', () => {
  const cleanups: (() => Promise<void>)[] = [];
  let paused: { dir: string; runDir: string; cleanup: () => Promise<void> };

  /** A fresh project holding a copy of the paused run (3 of 8 cases done), pointed at `url`. */
  async function copyOfPausedRun(url: string) {
    const project = await makeProject({ 'suites/budget.yaml': suite(8) });
    cleanups.push(project.cleanup);
    await cp(join(paused.dir, 'reports'), join(project.dir, 'reports'), { recursive: true });
    await writeFile(join(project.dir, 'driftcheck.config.yaml'), config(url));
    return { dir: project.dir, runDir: join(project.dir, relative(paused.dir, paused.runDir)) };
  }

  beforeAll(async () => {
    const project = await makeProject({ 'suites/budget.yaml': suite(8) });
    const limited = await startSimProcess(['--credit-after', '3']);
    try {
      await writeFile(join(project.dir, 'driftcheck.config.yaml'), config(limited.url));
      const first = await runCli(['run', '--concurrency', '1'], { cwd: project.dir, env });
      expect(first.code).toBe(3);
      paused = { dir: project.dir, runDir: runDirFrom(first, project.dir), cleanup: project.cleanup };
    } finally {
      await limited.stop();
    }
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });
  afterAll(() => paused.cleanup());

  it('two resumes of one run at once: the second refuses, naming the first; each unfinished case is sent once', async () => {
    const service = await startGatedService();
    cleanups.push(service.close);
    const { dir, runDir } = await copyOfPausedRun(service.url);
    const first = spawnCli(['run', '--resume', relative(dir, runDir)], { cwd: dir, env });
    // The first holds the folder once it sends; its answers are held until the second is done.
    await until(() => service.requests() > 0);
    const second = await runCli(['run', '--resume', relative(dir, runDir)], { cwd: dir, env });
    service.release();
    const done = await first.result;

    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`is in use by another driftcheck (pid ${first.child.pid} on this host`);
    expect(second.stderr).toContain(`if that process is gone, delete ${join(runDir, LOCK)}`);
    expect(done.code).toBe(0);
    expect([...service.counts.entries()].sort()).toEqual(
      [3, 4, 5, 6, 7].map((i) => [`Say exactly: case ${i}`, 1]),
    );
    const keys = (await readSamples(runDir)).map((s) => s.key);
    expect(keys).toHaveLength(8);
    expect(new Set(keys).size).toBe(8);
    expect((await readReport(runDir)).summary).toMatchObject({ cases: 8, passed: 8 });
    expect(existsSync(join(runDir, LOCK))).toBe(false);
  });

  it('a running run holds its folder: a resume of it refuses; SIGTERM releases the lock', async () => {
    const service = await startGatedService();
    cleanups.push(service.close);
    const project = await makeProject({
      'suites/budget.yaml': suite(4),
      'driftcheck.config.yaml': config(service.url),
    });
    cleanups.push(project.cleanup);
    const running = spawnCli(['run', '--concurrency', '1'], { cwd: project.dir, env });
    let stderr = '';
    running.child.stderr!.on('data', (d) => (stderr += d));
    await until(() => service.requests() > 0);
    const runDir = /→ (reports\/\S+)/.exec(stderr)?.[1];
    expect(runDir).toBeDefined();
    expect(existsSync(join(project.dir, runDir!, LOCK))).toBe(true);

    const resume = await runCli(['run', '--resume', runDir!], { cwd: project.dir, env });
    expect(resume.code).toBe(2);
    expect(resume.stderr).toContain(`is in use by another driftcheck (pid ${running.child.pid} on this host`);

    running.child.kill('SIGTERM');
    service.release();
    const stopped = await running.result;
    expect(stopped.code).toBe(143);
    expect(existsSync(join(project.dir, runDir!, LOCK))).toBe(false);
    // Free again: the resume finishes the run, with no lock to take over.
    const resumed = await runCli(['run', '--resume', runDir!], { cwd: project.dir, env });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).not.toContain('took over');
  });

  it('takes over a lock left by a process that no longer runs, and refuses one whose process runs', async () => {
    const service = await startGatedService();
    service.release();
    cleanups.push(service.close);
    const { dir, runDir } = await copyOfPausedRun(service.url);
    const lock = (pid: number) =>
      `${JSON.stringify({ pid, hostname: hostname(), started_at: '2026-11-24T04:00:00.000Z' })}\n`;

    // This test's own process runs: its lock is live.
    await writeFile(join(runDir, LOCK), lock(process.pid));
    const refused = await runCli(['run', '--resume', relative(dir, runDir)], { cwd: dir, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`(pid ${process.pid} on this host, since 2026-11-24T04:00:00.000Z)`);
    expect(service.requests()).toBe(0);

    // A process that has exited: its lock is stale.
    const dead = await deadPid();
    await writeFile(join(runDir, LOCK), lock(dead));
    const resumed = await runCli(['run', '--resume', relative(dir, runDir)], { cwd: dir, env });
    expect(resumed.stderr).toContain(
      `took over ${join(runDir, LOCK)}, left by pid ${dead} that is no longer running`,
    );
    expect(resumed.code).toBe(0);
    expect(service.requests()).toBe(5);
    expect(existsSync(join(runDir, LOCK))).toBe(false);
  });
});

/** The pid of a process that has run and exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((done) => child.once('exit', done));
  return child.pid!;
}
