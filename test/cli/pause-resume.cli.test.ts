import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain, startSim } from '../helpers/main.js';

const ROUTER_KEY = `sk-or-v1-${'a1b2c3d4'.repeat(8)}`;

function config(url: string): string {
  return `services:\n  router: { kind: router, base_url: ${url}/api/v1, api_key_env: OPENROUTER_API_KEY }\n`;
}

function suite(n: number): string {
  const cases = Array.from(
    { length: n },
    (_, i) => `  - id: c${i}\n    prompt: "Say exactly: case ${i}"\n    expect: [{ contains: case }]`,
  );
  return `suite: budget\nservice: router\nmodel: openai/gpt-4o-mini\ncases:\n${cases.join('\n')}\n`;
}

describe('a credit limit reached mid-run', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it('pauses with exit 3, keeps what finished, and --resume sends only the rest (and removes a spill a killed session left)', async () => {
    const project = await makeProject({ 'suites/budget.yaml': suite(8) });
    cleanups.push(project.cleanup);
    // The router runs out of credit after 3 answers.
    const limited = await startSim(['--credit-after', '3']);
    cleanups.push(limited.stop);
    const env = { OPENROUTER_API_KEY: ROUTER_KEY };
    await import('node:fs/promises').then((fs) =>
      fs.writeFile(`${project.dir}/driftcheck.config.yaml`, config(limited.url)),
    );

    const first = await runMain(['run', '--concurrency', '1'], { cwd: project.dir, env });
    expect(first.code).toBe(3);
    const runDir = runDirFrom(first, project.dir);
    const paused = await readReport(runDir);
    expect(paused.run.status).toBe('paused');
    expect(paused.run.stop_reason?.kind).toBe('insufficient_credit');
    expect(paused.summary).toMatchObject({ passed: 3, not_run: 5, errored: 0 });
    expect(first.stderr).toContain('Resume with: driftcheck run --resume');

    // Credit topped up: a fresh simulator without a limit.
    const topped = await startSim();
    cleanups.push(topped.stop);
    await import('node:fs/promises').then((fs) =>
      fs.writeFile(`${project.dir}/driftcheck.config.yaml`, config(topped.url)),
    );
    // A session killed while a large suite's entries waited on disk left a spill file.
    const stale = `${runDir}/.fold.0123456789ab.spill`;
    await import('node:fs/promises').then((fs) => fs.writeFile(stale, '{"left":"behind"}'));
    const second = await runMain(['run', '--resume'], { cwd: project.dir, env });
    expect(second.code).toBe(0);
    await expect(import('node:fs/promises').then((fs) => fs.stat(stale))).rejects.toThrow(/ENOENT/);
    expect(runDirFrom(second, project.dir)).toBe(runDir);
    const done = await readReport(runDir);
    expect(done.run.status).toBe('completed');
    expect(done.summary).toMatchObject({ cases: 8, passed: 8, not_run: 0 });
    expect(done.run.id).toBe(paused.run.id);

    // Nothing finished was sent twice: the resumed run sent exactly the 5 that had not run.
    const stats = await topped.stats();
    expect(stats.completions).toBe(5);
    expect(Object.keys(stats.byCase).sort()).toEqual([
      'budget/c3#0',
      'budget/c4#0',
      'budget/c5#0',
      'budget/c6#0',
      'budget/c7#0',
    ]);
  });
});
