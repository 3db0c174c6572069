import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/io.js';
import { simOptions } from '../../src/cli/sim.js';
import { startSimulator } from '../../src/sim/server.js';
import { type CliResult, QUIET_ENV, type SimStats } from './cli.js';

/**
 * A command run in this process through the CLI's main(argv, io) — the function the binary
 * calls — with the environment a spawned CLI gets (PATH, NO_COLOR, and what the test adds),
 * no terminal, and what it prints kept. The same result as runCli without a Node process to
 * start and the compiled code to load: for a test of what a command decides, prints and
 * writes. What only a process shows (signals, the exit after flushing, the built binary,
 * a crash's last resort) stays with runCli in a *.process.test.ts.
 */
export async function runMain(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const out = (t: string) => void (stdout += t);
  const err = (t: string) => void (stderr += t);
  const io: CliIO = {
    stdout: out,
    stderr: err,
    styled: { stdout: out, stderr: err },
    env: { PATH: process.env.PATH, NO_COLOR: '1', ...QUIET_ENV, ...options.env },
    cwd: options.cwd,
    color: false,
    tty: false,
  };
  const code = await main(args, io);
  return { code, signal: null, stdout, stderr };
}

/**
 * The simulator `driftcheck sim ARGS` starts, in this process on a free loopback port: the
 * flags read by the command's own simOptions, the same stats endpoint. startSimProcess
 * (helpers/cli.ts) is for a test of the spawned command itself.
 */
export async function startSim(
  args: string[] = [],
): Promise<{ url: string; stop: () => Promise<void>; stats: () => Promise<SimStats> }> {
  const sim = await startSimulator(simOptions(['--port', '0', ...args]));
  return {
    url: sim.url,
    stop: () => sim.close(),
    stats: async () => (await (await fetch(`${sim.url}/__sim/stats`)).json()) as SimStats,
  };
}
