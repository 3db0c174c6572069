import { spawn } from 'node:child_process';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { runsIndexPage, writeRunsIndex } from '../report/runs-index/write.js';
import type { CliIO } from './io.js';
import { listenError, portOf } from './port.js';
import { projectPaths } from './project.js';
import { serveReports } from './serve-reports.js';

/**
 * `driftcheck open` (or `view`): serves the reports folder on loopback, read-only, and opens
 * its index of runs in the browser; also writes that index as `reports/index.html`. Runs
 * until interrupted (exit 0).
 */
export async function openCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      'no-open': { type: 'boolean' },
      'report-dir': { type: 'string' },
      config: { type: 'string' },
    },
    strict: true,
  });
  const port = portOf(values.port);
  const reportDir = projectPaths(io, values.config).dir(values['report-dir'], 'reports');
  const written = await writeRunsIndex(reportDir);
  const server = await serveReports({
    root: reportDir,
    port,
    index: async () => (await runsIndexPage(reportDir)).html,
  }).catch((error: unknown) => {
    throw listenError(port, error);
  });
  // Listened for before the URL is printed: whoever reads it may stop the server at once.
  const stopped = new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  const shown = relative(io.cwd, reportDir) || '.';
  io.stderr(
    `driftcheck: serving ${shown}/ read-only at ${server.url} (Ctrl-C to stop); index: ${relative(io.cwd, written)}\n`,
  );
  io.stdout(`${server.url}\n`);
  if (!values['no-open']) {
    const opened = await openBrowser(server.url, io.env);
    if (!opened.ok)
      io.stderr(`driftcheck: could not start a browser (${opened.why}): open ${server.url} yourself\n`);
  }
  await stopped;
  await server.close();
  return 0;
}

/** The platform's own opener: `open` on macOS, `start` on Windows, `xdg-open` elsewhere. */
export function opener(platform: NodeJS.Platform, url: string): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url] };
  return { command: 'xdg-open', args: [url] };
}

/**
 * Hands the URL to the platform's opener, detached; never throws. `ok: false` (with why)
 * when there is none (`xdg-open` missing on a server) or it failed at once: the caller says
 * so, and the URL it printed is the way in.
 */
function openBrowser(
  url: string,
  env: NodeJS.ProcessEnv,
): Promise<{ ok: true } | { ok: false; why: string }> {
  const { command, args } = opener(process.platform, url);
  return new Promise((done) => {
    let child;
    try {
      child = spawn(command, args, { detached: true, stdio: 'ignore', env, windowsHide: true });
    } catch (error) {
      return done({ ok: false, why: `${command}: ${(error as Error).message}` });
    }
    child.once('error', (error: NodeJS.ErrnoException) =>
      done({
        ok: false,
        why: error.code === 'ENOENT' ? `no ${command} on this system` : `${command}: ${error.message}`,
      }),
    );
    child.once('spawn', () => {
      child.unref();
      // An opener that exits at once with an error found no browser to hand the URL to.
      const early = setTimeout(() => done({ ok: true }), 1500);
      early.unref();
      child.once('exit', (code) => {
        clearTimeout(early);
        done(code === 0 ? { ok: true } : { ok: false, why: `${command} exited with ${code}` });
      });
    });
  });
}
