import type { ChildProcess } from 'node:child_process';
import { type CliResult, spawnCli } from './cli.js';

/** `driftcheck open` (or `view`) running in its own process, with the URL it printed. */
export interface OpenProcess {
  url: string;
  child: ChildProcess;
  /** SIGTERM, then its result once it exits. */
  stop(): Promise<CliResult>;
}

/** Starts `driftcheck <command> …args` and resolves once it prints its URL on stdout. */
export async function startOpen(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; command?: 'open' | 'view' },
): Promise<OpenProcess> {
  const { child, result } = spawnCli([options.command ?? 'open', ...args], options);
  const url = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /^(http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(out);
      if (m) done(m[1]!);
    });
    result.then((r) => fail(new Error(`driftcheck open exited early (${r.code}): ${r.stderr}`)), fail);
  });
  return {
    url,
    child,
    stop: () => {
      child.kill('SIGTERM');
      return result;
    },
  };
}
