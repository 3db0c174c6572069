import { DriftcheckError } from '../util/errors.js';
import { EXIT } from '../util/exit-codes.js';
import { createRedactor } from '../service/redact.js';
import type { CliIO } from './io.js';

/**
 * The top-level catch: the one place an exception becomes a message and an exit code, and
 * the one place the `driftcheck <command>:` prefix is written. A message that already starts
 * with it (an error passed on from a nested call that prefixed it) keeps a single one.
 */
export function reportFailure(
  command: string,
  error: unknown,
  io: Pick<CliIO, 'stderr' | 'env'>,
  flags: FlagHelp = {},
): number {
  const prefix = `driftcheck ${command}: `;
  const once = (text: string) => (text.startsWith(prefix) ? text.slice(prefix.length) : text);
  // Whatever reaches the terminal from here is scrubbed of every key-like env value.
  const { redact } = createRedactor(secretsIn(io.env));
  if (error instanceof DriftcheckError) {
    io.stderr(redact(`${prefix}${once(error.message)}\n`).text);
    return error.exitCode;
  }
  if (isParseArgsError(error)) {
    io.stderr(`${prefix}${parseArgsMessage(command, error as Error & { code: string }, flags)}\n`);
    return EXIT.usage;
  }
  // A stack starts with the error's own `Name: message`; a thrown non-Error is its text.
  const detail = error instanceof Error ? (error.stack ?? error.message) : once(String(error));
  io.stderr(redact(`${prefix}internal error (a bug — please report it):\n${detail}\n`).text);
  return 70;
}

/** Values of env variables named like credentials: redacted from any error output. */
function secretsIn(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(
      ([name, value]) => /KEY|TOKEN|SECRET|PASSWORD/i.test(name) && value !== undefined && value.length >= 16,
    )
    .map(([, value]) => value as string);
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/** What the top-level catch may ask of a command's flags for a parse error's message. */
interface FlagHelp {
  /** The option a mistyped flag most likely meant. */
  guess?: (flag: string) => string | null | undefined;
  /** How the help shows an option that takes a value, and what it is for. */
  usage?: (flag: string) => { usage: string; about: string | null } | null;
}

/**
 * A parseArgs error in our own words: an unknown option is named with its did-you-mean alone
 * (Node's text goes on about '--' and ends on an unbalanced quote); an option whose value
 * starts with a dash is named with what it takes; other errors keep Node's.
 */
function parseArgsMessage(command: string, error: Error & { code: string }, flags: FlagHelp): string {
  const help = `  → run 'driftcheck ${command} --help' for the options`;
  const flag = /'(--?[^'\s]+)'/.exec(error.message)?.[1];
  // Node's own text quotes the flag unevenly and repeats it: name it once, with the guess alone.
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag) {
    const guess = flags.guess?.(flag);
    return `unknown option '${flag}'${guess ? `\n  → did you mean ${guess}?` : ''}\n${help}`;
  }
  // `--report-dir -x`: a value that starts with a dash is taken for an option.
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag && /ambiguous/.test(error.message)) {
    const shown = flags.usage?.(flag);
    const takes = shown ? ` (${shown.usage}${shown.about ? `: ${shown.about}` : ''})` : '';
    return `${flag} takes a value${takes}, and what follows it starts with '-'\n  → write ${flag}=VALUE for a value that starts with '-'\n${help}`;
  }
  return `${error.message}\n${help}`;
}
