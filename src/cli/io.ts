/** What a command may touch of the outside world; injected so tests can run commands in-process. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Colour only on an interactive terminal, and never with NO_COLOR. */
  color: boolean;
  /** stderr is an interactive terminal outside CI: progress redraws one line in place. */
  tty: boolean;
}

export function processIO(): CliIO {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    env: process.env,
    cwd: process.cwd(),
    color: Boolean(process.stdout.isTTY) && !('NO_COLOR' in process.env) && process.env.TERM !== 'dumb',
    tty: Boolean(process.stderr.isTTY) && !process.env.CI && process.env.TERM !== 'dumb',
  };
}
