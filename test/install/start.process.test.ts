import { execFile } from 'node:child_process';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

// `npm start` after `npm ci` as a newcomer types it, in a clone of what is committed: the
// install's `prepare` built dist/, so start runs the demo without building it again, and
// builds only once a source changed.
const exec = promisify(execFile);
const run = (command: string, args: string[], cwd: string) =>
  exec(command, args, {
    cwd,
    env: { ...process.env, CI: 'true', NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
const BUILD = '> driftcheck@0.2.0 build';

let root: string;
let clone: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'driftcheck-start-'));
  clone = join(root, 'driftcheck');
  await exec('git', ['clone', '--quiet', '--depth', '1', `file://${REPO}`, clone]);
  const ci = await run(
    'npm',
    ['ci', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
    clone,
  );
  expect(ci.code, ci.stderr).toBe(0);
}, 300_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe('npm start', () => {
  it('after npm ci runs the demo without building again (prepare built it)', async () => {
    const start = await run('npm', ['start'], clone);
    // The demo catches what it is meant to: exit 1, its summary on stdout.
    expect(start.code, start.stderr).toBe(1);
    expect(start.stdout).toContain('dist/ is up to date with src/: not building again');
    expect(start.stdout).not.toContain(BUILD);
    expect(start.stdout).toMatch(/^18 cases · 12 passed · 4 failed · 2 errored/m);
  }, 120_000);

  it('builds once a source changed, and not again after', async () => {
    await appendFile(join(clone, 'src/cli/version.ts'), '// edited\n');
    expect((await run('node', ['scripts/build-stamp.mjs', 'check'], clone)).code).toBe(1);
    const edited = await run('npm', ['start'], clone);
    expect(edited.code, edited.stderr).toBe(1);
    expect(edited.stdout).toContain(BUILD);
    expect((await run('node', ['scripts/build-stamp.mjs', 'check'], clone)).code).toBe(0);
    const again = await run('npm', ['start'], clone);
    expect(again.stdout).not.toContain(BUILD);
  }, 240_000);

  it('a build that began and did not end leaves dist/ stale', async () => {
    expect((await run('node', ['scripts/build-stamp.mjs', 'begin'], clone)).code).toBe(0);
    expect((await run('node', ['scripts/build-stamp.mjs', 'check'], clone)).code).toBe(1);
    expect((await run('node', ['scripts/build-stamp.mjs', 'end'], clone)).code).toBe(0);
    expect((await run('node', ['scripts/build-stamp.mjs', 'check'], clone)).code).toBe(0);
  }, 60_000);
});
