import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SampleResult } from '../../src/stored/journal/records.js';
import { makeProject, readReport, runCli, spawnCli, startSimProcess } from '../helpers/cli.js';

const KEY = `sk-or-v1-${'c0ffee42'.repeat(8)}`;
const env = { OPENROUTER_API_KEY: KEY, DRIFTCHECK_INTERRUPT_GRACE_S: '20' };

function suite(n: number): string {
  const cases = Array.from(
    { length: n },
    (_, i) => `  - id: c${i}\n    prompt: "Say exactly: case ${i}"\n    expect: [{ contains: case }]`,
  );
  return `suite: crash\nservice: router\nmodel: openai/gpt-4o-mini\ncases:\n${cases.join('\n')}\n`;
}

function config(url: string): string {
  return `services:\n  router: { kind: router, base_url: ${url}/api/v1, api_key_env: OPENROUTER_API_KEY }\n`;
}

async function journalKeys(runDir: string): Promise<string[]> {
  const text = await readFile(join(runDir, 'results.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        const record = JSON.parse(l) as SampleResult & { type?: string };
        return record.type === undefined ? [record.key] : [];
      } catch {
        return [];
      }
    });
}

async function waitFor<T>(probe: () => Promise<T | null>, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await probe();
    if (value !== null) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The run folder as soon as the run has created it. */
async function runDirOf(projectDir: string): Promise<string> {
  return waitFor(async () => {
    const entries = await import('node:fs/promises').then((fs) =>
      fs.readdir(join(projectDir, 'reports')).catch(() => []),
    );
    const id = entries.find((e) => /^\d{8}T/.test(e));
    return id ? join(projectDir, 'reports', id) : null;
  }, 'the run folder');
}

describe('crash and interrupt safety', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('kill -9 mid-run, then --resume: no case lost, no finished case sent again', async () => {
    const N = 300;
    const project = await makeProject({ 'suites/crash.yaml': suite(N) });
    cleanups.push(project.cleanup);
    const slow = await startSimProcess(['--latency-ms', '20']);
    cleanups.push(slow.stop);
    await writeFile(join(project.dir, 'driftcheck.config.yaml'), config(slow.url));

    const { child, result } = spawnCli(['run', '--concurrency', '4'], { cwd: project.dir, env });
    const runDir = await runDirOf(project.dir);
    await waitFor(async () => ((await journalKeys(runDir)).length >= 60 ? true : null), '60 journaled cases');
    child.kill('SIGKILL');
    expect((await result).signal).toBe('SIGKILL');
    // A write torn by the crash: the resume must ignore it, not choke on it.
    await appendFile(join(runDir, 'results.jsonl'), '{"key":"crash/c299#0","sta');
    const finished = new Set(await journalKeys(runDir));
    expect(finished.size).toBeGreaterThanOrEqual(60);
    expect(finished.size).toBeLessThan(N);

    // The killed run wrote no report; its journal renders one: killed (no end record, no
    // signal it could name), what finished counted. `report` itself was not signalled: it
    // exits by what it rendered — every finished case passed, the rest not run: 3, not a pass.
    const rendered = await runCli(['report', runDir], { cwd: project.dir, env });
    expect(rendered.code).toBe(3);
    // The run's recorded code and this command's exit are both said, and why they differ.
    expect(rendered.stdout).toMatch(
      /KILLED — no end record \(kill -9, out of memory, a crash\); finish it with --resume\s+\(recorded exit\s+137\)/,
    );
    expect(rendered.stdout).toMatch(
      /driftcheck report exits 3: the run is unfinished and no case it finished fails/,
    );
    expect(rendered.stderr).toMatch(
      /driftcheck report: exit 3 — the run was killed \(exit_code 137 in report\.json\): no case it finished fails, and \d+ of 300 cases not run/,
    );
    // Word-bounded: a run id holds the clock (T143256…), which says nothing of an exit code.
    expect(rendered.stdout).not.toMatch(/SIGTERM|\b143\b/);
    expect(rendered.stderr).toMatch(/passed over 1 unreadable journal line/);
    const killed = await readReport(runDir);
    expect(killed.run).toMatchObject({ status: 'interrupted', exit_code: 137, stop_reason: null });
    expect(killed.run.provenance.rendered_by).toBe('report');
    expect(killed.summary).toMatchObject({ cases: N, passed: finished.size, not_run: N - finished.size });
    expect(await readFile(join(runDir, 'report.html'), 'utf8')).toContain('KILLED');

    const fresh = await startSimProcess();
    cleanups.push(fresh.stop);
    await writeFile(join(project.dir, 'driftcheck.config.yaml'), config(fresh.url));
    const resumed = await runCli(['run', '--resume'], { cwd: project.dir, env });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(/ignored 1 unreadable journal line/);

    const report = await readReport(runDir);
    expect(report.run.status).toBe('completed');
    expect(report.summary).toMatchObject({ cases: N, passed: N, not_run: 0 });
    const resent = (await fresh.stats()).byCase;
    const lost = report.cases.filter((c) => !finished.has(`${c.id}#0`) && !resent[`${c.id}#0`]).length;
    const finishedSentAgain = Object.keys(resent).filter((k) => finished.has(k)).length;
    const sentTwiceOnResume = Object.values(resent).filter((n) => n > 1).length;
    expect({ lost, finishedSentAgain, sentTwiceOnResume }).toEqual({
      lost: 0,
      finishedSentAgain: 0,
      sentTwiceOnResume: 0,
    });
    expect(Object.keys(resent).length).toBe(N - finished.size);
    console.info(
      `kill -9 after ${finished.size}/${N} journaled; resume sent ${Object.keys(resent).length}; ` +
        `lost ${lost}, finished cases sent again ${finishedSentAgain}`,
    );
  });

  it('SIGINT: in-flight requests finish and are kept, the rest not run, exit 130; --resume completes', async () => {
    const N = 12;
    const project = await makeProject({ 'suites/crash.yaml': suite(N) });
    cleanups.push(project.cleanup);
    const slow = await startSimProcess(['--latency-ms', '1500']);
    cleanups.push(slow.stop);
    await writeFile(join(project.dir, 'driftcheck.config.yaml'), config(slow.url));

    const { child, result } = spawnCli(['run', '--concurrency', '3'], { cwd: project.dir, env });
    const runDir = await runDirOf(project.dir);
    await waitFor(
      async () => ((await slow.stats()).completions >= 3 ? true : null),
      'three requests in flight',
    );
    child.kill('SIGINT');
    const interrupted = await result;
    expect(interrupted.code).toBe(130);
    expect(interrupted.stderr).toMatch(/SIGINT — no new requests/);
    expect(interrupted.stderr).toMatch(/Resume with: driftcheck run --resume/);
    const report = await readReport(runDir);
    expect(report.run.status).toBe('interrupted');
    expect(report.summary).toMatchObject({ passed: 3, not_run: N - 3 });

    const resumed = await runCli(['run', '--resume', runDir], { cwd: project.dir, env });
    expect(resumed.code).toBe(0);
    expect((await readReport(runDir)).summary).toMatchObject({ passed: N, not_run: 0 });
    expect((await slow.stats()).completions).toBe(N);
  });
});
