import type { CliIO } from './io.js';
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
 * The CLI entry point: dispatches to a command, and hands what it throws to reportFailure
 * (cli/failure.ts), the one place an exception becomes DESIGN.md's exit code.
 */
export async function main(argv: string[], given?: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  const { processIO, shownSafely } = await import('./io.js');
  let io = given ?? processIO();
  // `--version` loads nothing more: what the other commands need is imported below it.
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
  const { saveVerdicts, useVerdictCache, cacheDirOf } = await import('../util/verdict-cache.js');
  useVerdictCache(cacheDirOf(io.env));
  try {
    const command = await load();
    return await command(joinNegativeValues(name, rest), io);
  } catch (error) {
    const { reportFailure } = await import('./failure.js');
    return reportFailure(name, error, io, {
      guess: (flag) => didYouMean(flag, optionsOf(name)),
      usage: (flag) => optionUsage(name, flag),
    });
  } finally {
    await saveVerdicts();
    useVerdictCache(null);
  }
}
