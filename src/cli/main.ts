import { DriftcheckError } from '../util/errors.js';
import { EXIT } from '../util/exit-codes.js';
import { createRedactor } from '../service/redact.js';
import { type CliIO, processIO, shownSafely } from './io.js';
import { version } from './version.js';

/** The top-level help; its run options are the run command's own (help.ts), read when shown. */
const HELP = (RUN_OPTIONS: string) => `driftcheck — catch regressions in hosted chat-completion models

Usage: driftcheck <command> [options]

Commands:
  run [paths…]                 run suites (files or folders; default suites/)
  verify [--service NAME]      one minimal call per service; prints model, finish_reason, usage, verdict
  validate [paths…]            check suites and config without calling any service
  baseline accept RUN_DIR      promote a run's results to baselines/ (--case ID… for some cases)
  diff RUN_A RUN_B             compare two stored runs case by case (--reporter json,html… --out DIR)
  compare RUN_DIR…             runs side by side: compare.html, compare.json, compare.md (--reference RUN_DIR)
  merge RUN_DIR… --out DIR     merge shard runs into one report (verdict as an unsharded run)
  report RUN_DIR…              re-render a run's reports from its journal (a killed run, or after an upgrade)
  recheck RUN_DIR [paths…]     today's checks on a run's stored answers, in a new run folder (sends nothing)
  history DIR --out FILE.html  the trend page of a history folder (history add DIR RUN_DIR… appends runs)
  pin SUITE… [--provider]      replace ~author/family-latest aliases with today's concrete models
  sim [--port N]               start the embedded simulator of both services on loopback
  init [--workflow]            a commented config, an example suite, reports/ in .gitignore
  list [paths…]                what a run would send after filters (suites, cases, samples)
  open [--port N] [--no-open]  serve reports/ on loopback and open its index of runs (alias: view)

Run options:
${RUN_OPTIONS}
Exit codes: 0 ok · 1 failure, error or regression · 2 usage, config or pre-flight error (nothing sent)
            3 paused on a budget or credit condition (--resume continues) · 4 auth or permission failure
'driftcheck <command> --help' shows a command's options and examples.
Docs: README.md · Schemas: schemas/*.schema.json
`;

type Command = (args: string[], io: CliIO) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  run: async () => (await import('./run.js')).runCommand,
  verify: async () => (await import('./verify.js')).verifyCommand,
  validate: async () => (await import('./validate.js')).validateCommand,
  baseline: async () => (await import('./baseline.js')).baselineCommand,
  diff: async () => (await import('./diff.js')).diffCommand,
  compare: async () => (await import('./compare.js')).compareCommand,
  merge: async () => (await import('./merge.js')).mergeCommand,
  report: async () => (await import('./report.js')).reportCommand,
  recheck: async () => (await import('./recheck.js')).recheckCommand,
  init: async () => (await import('./init.js')).initCommand,
  list: async () => (await import('./list.js')).listCommand,
  pin: async () => (await import('./pin.js')).pinCommand,
  sim: async () => (await import('./sim.js')).simCommand,
  history: async () => (await import('./history.js')).historyCommand,
  open: async () => (await import('./open.js')).openCommand,
  view: async () => (await import('./open.js')).openCommand,
};

/**
 * The CLI entry point: dispatches to a command and maps every known error to DESIGN.md's
 * exit codes. The only place that decides an exit code from an exception.
 */
export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') {
    io.stdout(`${version()}\n`);
    return 0;
  }
  const { COMMAND_HELP, didYouMean, joinNegativeValues, optionsBlock, optionsOf, optionUsage } =
    await import('./help.js');
  // What a command prints holds no control character but its own colours (shownSafely).
  // Messages to a terminal fit it (a run folder's path, the report files, an error's hint);
  // stdout is not fitted: it may be JSON, and the console report fits by itself.
  const columns = io.tty ? io.columns : undefined;
  if (columns) {
    const { fitToTerminal } = await import('../report/terminal.js');
    io = shownSafely(io, (text) => fitToTerminal(text, columns));
  } else io = shownSafely(io);
  if (!name || name === '--help' || name === '-h') {
    io.stdout(HELP(optionsBlock('run')));
    return name ? 0 : 2;
  }
  // `driftcheck help run` and `driftcheck run --help` answer the same, with exit 0.
  const helpFor =
    name === 'help' ? (rest[0] ?? null) : rest.includes('--help') || rest.includes('-h') ? name : null;
  if (name === 'help' && helpFor === null) {
    io.stdout(HELP(optionsBlock('run')));
    return 0;
  }
  if (helpFor !== null && COMMAND_HELP[helpFor]) {
    io.stdout(COMMAND_HELP[helpFor]);
    return 0;
  }
  const load = COMMANDS[helpFor ?? name];
  if (!load) {
    const guess = didYouMean(helpFor ?? name, Object.keys(COMMANDS));
    io.stderr(
      `driftcheck: unknown command '${helpFor ?? name}'${guess ? ` — did you mean '${guess}'?` : ''}\n  → run 'driftcheck --help' for the list of commands\n`,
    );
    return 2;
  }
  try {
    const command = await load();
    return await command(joinNegativeValues(name, rest), io);
  } catch (error) {
    return reportFailure(name, error, io, {
      guess: (flag) => didYouMean(flag, optionsOf(name)),
      usage: (flag) => optionUsage(name, flag),
    });
  }
}

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
