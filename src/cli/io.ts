import { printable } from '../util/printable.js';
import { formatDiagnostic } from '../util/errors.js';
import type { Diagnostic } from '../util/errors.js';

/** What a command may touch of the outside world; injected so tests can run commands in-process. */
export interface CliIO {
  /** Prints to stdout (a command's IO escapes every control character: see shownSafely). */
  stdout(text: string): void;
  /** Prints to stderr, likewise. */
  stderr(text: string): void;
  /**
   * Prints as given, for driftcheck's own escapes (the console report's colours, the
   * progress line redrawn in place): only text whose every piece from a service or a file
   * already went through printable.
   */
  styled: { stdout(text: string): void; stderr(text: string): void };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** ANSI colours on stdout, as colorFor decides from the environment and the terminal. */
  color: boolean;
  /** stderr is an interactive terminal outside CI: progress redraws one line in place. */
  tty: boolean;
  /** The terminal's width in columns, when output goes to one (or COLUMNS says). */
  columns?: number;
}

export function processIO(): CliIO {
  const stdout = (t: string) => void process.stdout.write(t);
  const stderr = (t: string) => void process.stderr.write(t);
  return {
    stdout,
    stderr,
    styled: { stdout, stderr },
    env: process.env,
    cwd: process.cwd(),
    color: colorFor(process.env, Boolean(process.stdout.isTTY)),
    tty: Boolean(process.stderr.isTTY) && !process.env.CI && process.env.TERM !== 'dumb',
    ...columnsOf(),
  };
}

/** The values of FORCE_COLOR that turn colour on (Node's: 16, 256 and 16 million colours); any other turns it off. */
const FORCE_COLOR_ON = new Set(['', '1', '2', '3', 'true']);

/**
 * Whether stdout gets ANSI colours. FORCE_COLOR decides when it is set, as Node documents
 * it (1, 2, 3, true or empty: on; any other value, 0 among them: off), and wins over
 * NO_COLOR; otherwise NO_COLOR set to anything but the empty string turns colour off
 * (no-color.org), and else an interactive terminal that is not TERM=dumb has it.
 */
export function colorFor(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return FORCE_COLOR_ON.has(force.trim().toLowerCase());
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY && env.TERM !== 'dumb';
}

/**
 * The IO a command gets: everything it prints through stdout and stderr made printable
 * (the terminal is where an answer, an error message or a suite value would otherwise
 * retitle, clear or rewrite the screen), stderr then fitted by `fit`. `styled` is left as is.
 */
export function shownSafely(io: CliIO, fit: (text: string) => string = (t) => t): CliIO {
  const { stdout, stderr } = io.styled;
  return {
    ...io,
    stdout: (text) => stdout(printable(text)),
    stderr: (text) => stderr(fit(printable(text))),
  };
}

/** Where the output goes to a terminal, its width; else COLUMNS when set (CI logs have no width). */
function columnsOf(): { columns?: number } {
  const tty = process.stdout.columns || process.stderr.columns;
  const env = Number(process.env.COLUMNS);
  const columns = tty || (Number.isInteger(env) && env > 0 ? env : 0);
  return columns ? { columns } : {};
}

/** Suite warnings on stderr, each as an error would be printed: `driftcheck <command>: file:line:column: warning: …`. */
export function warnTo(io: CliIO, command: string): (warnings: Diagnostic[]) => void {
  return (warnings) => {
    for (const w of warnings) io.stderr(`driftcheck ${command}: ${formatDiagnostic(w)}\n`);
  };
}
