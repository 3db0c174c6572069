import { execFile } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

// driftcheck installed the ways people install a tool — an `npm pack` tarball and a git URL
// (npm runs the package's `prepare`, which builds it) — into scratch projects, where
// `npx driftcheck init` then `npx driftcheck run --sim` run; and `npm start` after `npm ci` as
// a newcomer types it. A clone of the repository stands in for the remote: what is installed
// is what is committed. One clone and one `npm ci` serve the tarball and `npm start`: its
// `prepare` builds dist/ from the committed sources, and the tarball packs that build.
const exec = promisify(execFile);
const run = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) =>
  exec(command, args, {
    cwd,
    env: { ...process.env, CI: 'true', NO_COLOR: '1', ...env },
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
const npm = async (args: string[], cwd: string) => {
  const r = await run(
    'npm',
    [...args, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
    cwd,
  );
  expect(r.code, `npm ${args.join(' ')}\n${r.stderr}`).toBe(0);
  return r;
};
const npx = (args: string[], cwd: string) => run('npx', ['--no-install', 'driftcheck', ...args], cwd);
const BUILD = '> driftcheck@0.2.0 build';

let root: string;
let clone: string;
let tarball: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'driftcheck-install-'));
  clone = join(root, 'driftcheck');
  await exec('git', ['clone', '--quiet', '--depth', '1', `file://${REPO}`, clone]);
  await npm(['ci'], clone);
  // Packed before any test edits the clone; `prepare` already built what it packs.
  await npm(['pack', '--ignore-scripts', '--pack-destination', root], clone);
  tarball = join(
    root,
    (await readdir(root)).find((f) => f.endsWith('.tgz'))!,
  );
}, 300_000);
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
  const sim = await npx(['run', '--sim'], dir);
  expect(sim.code, sim.stdout + sim.stderr).toBe(0);
  expect(sim.stdout).toMatch(/PASS — no failure, no regression \(exit 0\)/);
}

describe('installing driftcheck', () => {
  it('from an npm pack tarball', async () => {
    const dir = await scratch('from-tarball');
    await npm(['install', tarball], dir);
    await initAndRun(dir);
  }, 600_000);

  it("from a git URL (npm builds it with the package's prepare script)", async () => {
    const dir = await scratch('from-git');
    await npm(['install', `git+file://${clone}`], dir);
    await initAndRun(dir);
  }, 600_000);
});

describe('npm start', () => {
  it('after npm ci runs the demo without building again (prepare built it)', async () => {
    const start = await run('npm', ['start'], clone);
    // The demo catches what it is meant to: exit 1, its summary on stdout.
    expect(start.code, start.stderr).toBe(1);
    expect(start.stdout).toContain('dist/ is up to date with src/: not building again');
    expect(start.stdout).not.toContain(BUILD);
    expect(start.stdout).toMatch(/^29 cases · 19 passed · 6 failed · 4 errored/m);
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
