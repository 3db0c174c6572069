import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opener } from '../../src/cli/open.js';
import { pathSegments } from '../../src/cli/serve-reports.js';
import { copyFromRepo, makeProject, runCli, runDirFrom } from '../helpers/cli.js';
import { type OpenProcess, startOpen } from '../helpers/open.js';

/** A raw request: the path is sent as written (fetch would resolve `..` before sending). */
function raw(
  url: string,
  path: string,
  options: { method?: string; host?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((done, fail) => {
    const req = request(
      {
        hostname,
        port,
        path,
        method: options.method ?? 'GET',
        headers: options.host ? { host: options.host } : {},
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => done({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', fail);
    req.end();
  });
}

describe('driftcheck open: the reports folder on loopback, read-only', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let server: OpenProcess;
  let runId: string;

  beforeAll(async () => {
    project = await makeProject({ 'secret.txt': 'not for the browser\n' });
    await copyFromRepo(project.dir, 'suites/demo', 'baselines');
    const run = await runCli(['run', '--sim', 'suites/demo'], { cwd: project.dir });
    runId = /→ reports\/(\S+)/.exec(run.stderr)![1]!;
    // A link that leads out of the folder, and a hidden file inside it.
    await symlink(project.dir, join(project.dir, 'reports', 'out'));
    await writeFile(join(project.dir, 'reports', '.hidden.json'), '{}');
    server = await startOpen(['--no-open'], { cwd: project.dir });
  });
  afterAll(async () => {
    await server?.stop();
    await project.cleanup();
  });

  it('serves the index at / (also written as reports/index.html) and the run folders’ files', async () => {
    const index = await raw(server.url, '/');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.body).toContain(`href="${runId}/report.html"`);
    const written = await readFile(join(project.dir, 'reports/index.html'), 'utf8');
    expect(written).toContain(`href="${runId}/report.html"`);
    const json = await raw(server.url, `/${runId}/report.json`);
    expect(json.status).toBe(200);
    expect(JSON.parse(json.body).run.id).toBe(runId);
    // Through reports/latest, a link inside the folder.
    expect((await raw(server.url, '/latest/summary.md')).status).toBe(200);
  });

  it('serves each page with its own CSP as a header, and any other file with one that runs nothing', async () => {
    const page = await raw(server.url, `/${runId}/report.html`);
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/
      .exec(page.body)![1]!
      .replace(/&#39;/g, "'");
    expect(page.headers['content-security-policy']).toBe(`${meta}; frame-ancestors 'none'`);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const json = await raw(server.url, `/${runId}/report.json`);
    expect(json.headers['content-security-policy']).toMatch(/^default-src 'none';.*sandbox$/);
  });

  it.each([
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    `/${'%2e%2e%2f'.repeat(6)}etc/passwd`,
    '/latest/../../secret.txt',
    '/out/secret.txt',
    '/.hidden.json',
    '/%00',
    '/%E0%A4%A',
  ])('refuses %s: nothing outside the folder, nothing hidden', async (path) => {
    const res = await raw(server.url, path);
    expect([400, 404]).toContain(res.status);
    expect(res.body).not.toContain('not for the browser');
  });

  it('is read-only, and answers only to its own host name', async () => {
    const post = await raw(server.url, '/', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect((await raw(server.url, `/${runId}/report.json`, { method: 'DELETE' })).status).toBe(405);
    const rebound = await raw(server.url, '/', { host: 'evil.example:80' });
    expect(rebound.status).toBe(421);
    const { port } = new URL(server.url);
    expect((await raw(server.url, '/', { host: `localhost:${port}` })).status).toBe(200);
  });

  it('decodes a path once, and refuses what could leave the folder', () => {
    expect(pathSegments('/a%20b/report.html?x=1#y')).toEqual(['a b', 'report.html']);
    // Dot segments, plain or encoded, are resolved as URLs resolve them: never above the root.
    expect(pathSegments('/a/%2e%2e/../../x')).toEqual(['x']);
    expect(pathSegments('/..%2f..%2fx')).toBeNull();
    expect(pathSegments('/a%5cb')).toBeNull();
    expect(pathSegments('/')).toEqual([]);
  });

  it('stops on SIGTERM with exit 0', async () => {
    const other = await startOpen(['--no-open'], { cwd: project.dir, command: 'view' });
    const result = await other.stop();
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/serving reports\/ read-only at http:\/\/127\.0\.0\.1:\d+\//);
  });
});

describe('reports/index.html: written after each run, recheck and compare into reports/', () => {
  it('lists each new run folder, and a comparison, as soon as the command ends', async () => {
    const project = await makeProject();
    try {
      await copyFromRepo(project.dir, 'suites/demo', 'baselines');
      const index = () => readFile(join(project.dir, 'reports/index.html'), 'utf8');
      const run = await runCli(['run', '--sim', 'suites/demo/tables.yaml'], { cwd: project.dir });
      const first = runDirFrom(run, project.dir).split('/').pop()!;
      expect(await index()).toContain(`href="${first}/report.html"`);
      const recheck = await runCli(['recheck', `reports/${first}`], { cwd: project.dir });
      const second = runDirFrom(recheck, project.dir).split('/').pop()!;
      expect(await index()).toContain(`recheck of ${first}`);
      const compare = await runCli(['compare', `reports/${first}`, `reports/${second}`], {
        cwd: project.dir,
      });
      expect(compare.code, compare.stderr).toBe(0);
      expect(await index()).toContain(`href="compare-${second}/compare.html"`);
    } finally {
      await project.cleanup();
    }
  });
});

describe('driftcheck open, as every command: --help and a did-you-mean', () => {
  it('answers --help (open and view alike) and guesses a mistyped command or flag', async () => {
    const project = await makeProject();
    try {
      for (const command of ['open', 'view']) {
        const help = await runCli([command, '--help'], { cwd: project.dir });
        expect(help.code).toBe(0);
        expect(help.stdout).toMatch(/^Usage: driftcheck open \[--port N\] \[--no-open\]/);
      }
      expect((await runCli(['help', 'view'], { cwd: project.dir })).code).toBe(0);
      const typo = await runCli(['opne'], { cwd: project.dir });
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain("unknown command 'opne' — did you mean 'open'?");
      const flag = await runCli(['open', '--no-opne'], { cwd: project.dir });
      expect(flag.code).toBe(2);
      expect(flag.stderr).toContain('did you mean --no-open?');
      expect((await runCli(['--help'], { cwd: project.dir })).stdout).toMatch(
        /^ {2}open \[--port N\] \[--no-open\] +serve reports\/ on loopback/m,
      );
    } finally {
      await project.cleanup();
    }
  });
});

describe('driftcheck open hands the URL to the platform opener, and never fails without one', () => {
  it('picks xdg-open, open or start by platform', () => {
    expect(opener('linux', 'http://x/')).toEqual({ command: 'xdg-open', args: ['http://x/'] });
    expect(opener('darwin', 'http://x/')).toEqual({ command: 'open', args: ['http://x/'] });
    expect(opener('win32', 'http://x/')).toEqual({
      command: 'cmd',
      args: ['/c', 'start', '""', 'http://x/'],
    });
  });

  it('runs xdg-open with the URL; without one it says so, prints the URL and goes on serving', async () => {
    const project = await makeProject();
    try {
      const bin = join(project.dir, 'bin');
      await mkdir(bin);
      const opened = join(project.dir, 'opened.txt');
      await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\necho "$@" > "${opened}"\n`);
      await chmod(join(bin, 'xdg-open'), 0o755);
      const withOpener = await startOpen([], {
        cwd: project.dir,
        env: { PATH: `${bin}:${process.env.PATH}` },
      });
      await expect
        .poll(() => readFile(opened, 'utf8').catch(() => ''), { timeout: 10_000 })
        .toBe(`${withOpener.url}\n`);
      const first = await withOpener.stop();
      expect(first.code).toBe(0);
      expect(first.stderr).not.toMatch(/could not start a browser/);

      // A PATH without any opener (node is called by its full path).
      const without = await startOpen([], {
        cwd: project.dir,
        env: { PATH: bin.replace(/bin$/, 'nothing') },
      });
      expect((await raw(without.url, '/')).status).toBe(200);
      const second = await without.stop();
      expect(second.code).toBe(0);
      expect(second.stderr).toContain(
        `could not start a browser (no xdg-open on this system): open ${without.url} yourself`,
      );
      expect(second.stdout).toBe(`${without.url}\n`);
    } finally {
      await project.cleanup();
    }
  });

  it('a port in use or out of range is exit 2', async () => {
    const project = await makeProject();
    try {
      const busy = await startOpen(['--no-open'], { cwd: project.dir });
      const { port } = new URL(busy.url);
      const again = await runCli(['open', '--no-open', '--port', port], { cwd: project.dir });
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(/--port \d+: the port is already in use/);
      await busy.stop();
      const range = await runCli(['open', '--port', '70000'], { cwd: project.dir });
      expect(range.code).toBe(2);
    } finally {
      await project.cleanup();
    }
  });
});
