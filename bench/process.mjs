// Spawning and measuring whole processes: wall time from spawn to exit, and peak RSS.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

export const REPO = fileURLToPath(new URL('..', import.meta.url));
/**
 * The driftcheck to measure: this checkout by default, or another built tree (`--root DIR`,
 * e.g. a `git archive` of an older commit, built) to compare before and after a change.
 */
export const binIn = (root = REPO) => join(root, 'bin/driftcheck.js');
const GNU_TIME = '/usr/bin/time';
const PEAK_RSS_HOOK = fileURLToPath(new URL('./peak-rss.mjs', import.meta.url));

/**
 * How peak RSS is measured. GNU time reports the child's ru_maxrss from wait4(), which is
 * the kernel's own high-water mark over the whole life of the process (no sampling gap).
 * Without it, a preloaded hook writes process.resourceUsage().maxRSS (the same kernel
 * figure) from the child's 'exit' handler.
 */
export const RSS_METHOD = existsSync(GNU_TIME) ? 'gnu-time-maxrss' : 'exit-hook-maxrss';

/**
 * Runs `node <args>` and measures it as a whole process. Wall time is taken in this
 * process from spawn to exit, so it includes Node start-up and module loading.
 */
export async function measureNode(args, { cwd, env, tmp, keepOutput = 4000 }) {
  const rssFile = join(tmp, `rss-${process.pid}-${Math.random().toString(36).slice(2)}.txt`);
  const [cmd, argv] =
    RSS_METHOD === 'gnu-time-maxrss'
      ? [GNU_TIME, ['-f', '%U %S %M', '-o', rssFile, process.execPath, ...args]]
      : [process.execPath, ['--import', PEAK_RSS_HOOK, ...args]];
  const childEnv = RSS_METHOD === 'gnu-time-maxrss' ? env : { ...env, BENCH_PEAK_RSS_FILE: rssFile };
  const started = performance.now();
  let exitedAt = null;
  const { code, stdout, stderr } = await new Promise((done, fail) => {
    const child = spawn(cmd, argv, { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    // Keep only the tail: a run's console output must not cost this process memory.
    child.stdout.on('data', (d) => (out = (out + d).slice(-keepOutput)));
    child.stderr.on('data', (d) => (err = (err + d).slice(-keepOutput)));
    child.on('error', fail);
    // The clock's time the process ended (GNU time's child exits a moment before it): from a
    // simulator's last reply to here is the client's tail.
    child.on('exit', () => (exitedAt = Date.now()));
    child.on('close', (c) => done({ code: c, stdout: out, stderr: err }));
  });
  const wallMs = performance.now() - started;
  const text = await readFile(rssFile, 'utf8').catch(() => '');
  await rm(rssFile, { force: true });
  // Last line "user_s sys_s maxrss_kb" (GNU time first prints "Command exited with…" on a non-zero exit).
  const [user, sys, kb] = (text.trim().split('\n').pop() ?? '').split(' ').map(Number);
  const known = (n) => Number.isFinite(n) && n >= 0;
  return {
    code,
    wallMs,
    load1m: loadavg()[0],
    exitedAt,
    cpuMs: known(user) && known(sys) ? (user + sys) * 1000 : null,
    peakRssMb: known(kb) && kb > 0 ? kb / 1024 : null,
    stdout,
    stderr,
  };
}

/** Starts `driftcheck sim --port 0 [--latency-ms N]` in its own process; resolves with its URL. */
export async function startSim(latencyMs, bin = binIn()) {
  const args = [bin, 'sim', '--port', '0', ...(latencyMs > 0 ? ['--latency-ms', String(latencyMs)] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((done, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) done(m[1]);
    });
    child.on('exit', (code) => fail(new Error(`simulator exited early (${code}): ${out}`)));
  });
  child.stdout.resume();
  return {
    url,
    pid: child.pid,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** Median of a list of numbers (mean of the middle two for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
