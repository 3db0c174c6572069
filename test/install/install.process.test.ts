import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

// Installs driftcheck the ways people install a tool — a git URL (npm runs the package's
// `prepare`, which builds it) and an `npm pack` tarball — into scratch projects, and runs
// `npx driftcheck init` then `npx driftcheck run --sim` there. A clone of the repository
// stands in for the remote: what is installed is what is committed.
const exec = promisify(execFile);
const npm = (args: string[], cwd: string) =>
  exec('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
    cwd,
    env: { ...process.env, CI: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  });
const npx = (args: string[], cwd: string) =>
  exec('npx', ['--no-install', 'driftcheck', ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

let root: string;
let clone: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'driftcheck-install-'));
  clone = join(root, 'driftcheck');
  await exec('git', ['clone', '--quiet', '--depth', '1', `file://${REPO}`, clone]);
}, 120_000);
afterAll(() => rm(root, { recursive: true, force: true }));

async function scratch(name: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir);
  await npm(['init', '-y'], dir);
  return dir;
}

async function initAndRun(dir: string): Promise<void> {
  const version = await npx(['--version'], dir);
  expect(version.code, version.stderr).toBe(0);
  expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
  const init = await npx(['init'], dir);
  expect(init.code, init.stderr).toBe(0);
  const run = await npx(['run', '--sim'], dir);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toMatch(/PASS — no failure, no regression \(exit 0\)/);
}

describe('installing driftcheck', () => {
  it('from an npm pack tarball', async () => {
    // The clone has no node_modules: npm pack runs prepare, which needs the dev dependencies.
    await npm(['ci'], clone);
    await npm(['pack', '--pack-destination', root], clone);
    const tarball = (await readdir(root)).find((f) => f.endsWith('.tgz'))!;
    const dir = await scratch('from-tarball');
    await npm(['install', join(root, tarball)], dir);
    await initAndRun(dir);
  }, 600_000);

  it("from a git URL (npm builds it with the package's prepare script)", async () => {
    const dir = await scratch('from-git');
    await npm(['install', `git+file://${clone}`], dir);
    await initAndRun(dir);
  }, 600_000);
});
