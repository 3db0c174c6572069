import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadReport } from '../../src/stored/report/read.js';
import type { Report } from '../../src/stored/report/types.js';
import type { SampleResult } from '../../src/stored/journal/records.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = join(REPO, 'bin/driftcheck.js');
/**
 * What every command a test runs is given besides PATH: no verdicts kept between commands
 * (util/verdict-cache.ts), so a test neither reads nor writes the user's cache folder and
 * each judges its suites whole. test/util/verdict-cache.process.test.ts gives its own folder.
 */
export const QUIET_ENV = { DRIFTCHECK_CACHE_DIR: 'off' } as const;

export interface CliResult {
  code: number | null;
  signal?: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the real, compiled CLI as a child process (what users and CI run). */
export function runCli(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<CliResult> {
  return spawnCli(args, options).result;
}

/** Like runCli, with the child process at hand (to signal or kill it mid-run). */
export function spawnCli(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): { child: ChildProcess; result: Promise<CliResult> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, NO_COLOR: '1', ...QUIET_ENV, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const result = new Promise<CliResult>((done, fail) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => {
      stdout += d;
    });
    child.stderr!.on('data', (d) => {
      stderr += d;
    });
    child.on('error', fail);
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr }));
  });
  return { child, result };
}

/** A scratch project folder, removed by the returned cleanup. */
export async function makeProject(
  files: Record<string, string> = {},
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'driftcheck-test-'));
  for (const [name, text] of Object.entries(files)) {
    const file = join(dir, name);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Copies folders of the repository (suites/, baselines/) into a scratch project. */
export async function copyFromRepo(dir: string, ...paths: string[]): Promise<void> {
  for (const p of paths) await cp(join(REPO, p), join(dir, p), { recursive: true });
}

/** Every file under a folder, recursively, with its text. */
export async function readTree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isFile()) continue;
    const file = join(e.parentPath, e.name);
    out.set(file, await readFile(file, 'utf8'));
  }
  return out;
}

/** Starts `driftcheck sim` in its own process and resolves once it prints its address. */
export async function startSimProcess(
  args: string[] = [],
): Promise<{ url: string; stop: () => Promise<void>; stats: () => Promise<SimStats> }> {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'sim', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) done(m[1]!);
    });
    child.on('exit', (code) => fail(new Error(`sim exited early (${code}): ${out}`)));
  });
  return {
    url,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
    stats: async () => (await (await fetch(`${url}/__sim/stats`)).json()) as SimStats,
  };
}

export interface SimStats {
  completions: number;
  byCase: Record<string, number>;
  byStatus: Record<string, number>;
}

/**
 * A run's report.json as driftcheck's reader restores it (every field of every case): what
 * the tests assert on. reportSchemaErrors of it checks the file as written.
 */
export async function readReport(runDir: string): Promise<Report> {
  const report = await loadReport(runDir);
  WRITTEN.set(report, await readRawReport(runDir));
  return report;
}

/** report.json as written, parsed: case lines leave out what the reader restores. */
export async function readRawReport(
  runDir: string,
): Promise<Record<string, unknown> & { cases: Record<string, unknown>[] }> {
  return JSON.parse(await readFile(join(runDir, 'report.json'), 'utf8'));
}

/** The file each report readReport returned was read from, parsed as written. */
export const WRITTEN = new WeakMap<object, unknown>();

/** Every sample line of a run's journal (results.jsonl), in the order they finished. */
export async function readSamples(runDir: string): Promise<SampleResult[]> {
  const text = await readFile(join(runDir, 'results.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SampleResult & { type?: string })
    .filter((record) => record.type === undefined);
}

/** The run folder a `run` printed (`report: reports/<id>/report.json`). */
export function runDirFrom(result: CliResult, cwd: string): string {
  const m = /report: (.+)\/report\.json/.exec(result.stderr);
  if (!m) throw new Error(`no report path in stderr:\n${result.stderr}\n${result.stdout}`);
  return join(cwd, m[1]!);
}
