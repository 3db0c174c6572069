import { writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { baselinePath } from '../stored/baseline/store.js';
import { SuiteBaseline } from '../stored/baseline/suite-baseline.js';
import { parseArgs } from 'node:util';
import { FileError, UsageError } from '../util/errors.js';
import { gitFromEnv, gitInfo } from '../history/git.js';
import { renderTrendPage } from '../history/page/render.js';
import { HistoryNights } from '../history/columns.js';
import { readRunForHistory } from '../history/report-input.js';
import { refusals } from '../fold/provenance.js';
import { appendRun } from '../stored/history/store.js';
import type { History } from '../stored/history/types.js';
import { countOf } from '../util/numbers.js';
import { READ_LIMITS, readBoundedText } from '../util/bounded-read.js';
import type { CliIO } from './io.js';
import { didYouMean, unknownSubcommand } from './help.js';

const USAGE =
  'usage: driftcheck history DIR --out FILE.html, or driftcheck history add DIR REPORT_DIR…\n  → driftcheck history --help for the options';

/** `driftcheck history …`: render the trend page, or `add` finished runs to the history. */
export async function historyCommand(args: string[], io: CliIO): Promise<number> {
  return args[0] === 'add' ? addCommand(args.slice(1), io) : pageCommand(args, io);
}

async function pageCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      out: { type: 'string' },
      'report-base': { type: 'string' },
      link: { type: 'string' },
      title: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1 || !values.out) {
    // `history ad DIR RUN_DIR`: a mistyped `add`, not a history folder named `ad`.
    const first = positionals[0];
    if (first !== undefined && positionals.length > 1 && didYouMean(first, ['add']))
      throw unknownSubcommand('history', first, ['add'], USAGE);
    throw new UsageError(USAGE);
  }
  const dir = resolve(io.cwd, positionals[0]!);
  // Read as columns: 30 nights of 100,000 cases as objects took 1.9 GB.
  const history = await HistoryNights.read(dir);
  // A mistyped folder must not publish an empty page with exit 0 (a green CI step).
  if (!history.months)
    throw new FileError(
      dir,
      `not a history folder (it does not exist, or holds no YYYY-MM.jsonl file)\n  → check the path, or add a run first: driftcheck history add ${positionals[0]} REPORT_DIR…`,
    );
  reportProblems(history, io);
  if (history.runs.length === 0)
    io.stderr(
      `driftcheck history: warning: no run in ${dir}; add some with 'driftcheck history add ${positionals[0]} REPORT_DIR…'\n`,
    );
  const html = renderTrendPage(history, {
    ...(values['report-base'] !== undefined ? { reportBase: values['report-base'] } : {}),
    ...(values.link !== undefined ? { link: values.link } : {}),
    ...(values.title !== undefined ? { title: values.title } : {}),
  });
  const out = resolve(io.cwd, values.out);
  await writeFile(out, html).catch((error: unknown) => {
    throw new FileError(out, 'cannot write the trend page; check the folder exists and is writable', {
      cause: error,
    });
  });
  const cases = history.caseCount();
  io.stderr(
    `trend page: ${relative(io.cwd, out)} (${countOf(history.runs.length, 'night')}, ${countOf(cases, 'case')}, ${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB)\n`,
  );
  return 0;
}

async function addCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { force: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length < 2) throw new UsageError(USAGE);
  const dir = resolve(io.cwd, positionals[0]!);
  const git = await gitInfo(gitFromEnv(io.env), io.cwd);
  const runs = [];
  // Every folder is read and judged before the first line is written: a refusal appends nothing.
  for (const path of positionals.slice(1)) {
    const read = await readRunForHistory(resolve(io.cwd, path));
    const refused = refusals('history_add', read.head.run);
    if (refused.length && !values.force)
      throw new UsageError(
        `${path}: run ${read.run.run_id} is ${refused.join(', ')}, not a night\n  → add the nightly (or merged) run, or pass --force to add it anyway (the trend page marks it as forced)`,
      );
    if (refused.length && read.run.provenance) read.run.provenance.forced = true;
    // Each case read once now and let go (a damaged line refuses the folder before anything
    // is written), and again when the run is appended.
    for await (const _case of read.cases());
    runs.push(read);
  }
  for (const { run, cases, baselines } of runs) {
    // Reports name the baseline file, not the run it came from: read it now.
    for (const s of run.suites) {
      const file = baselines.get(s.suite);
      if (file) s.baseline_source_run = await baselineSource(resolve(io.cwd, file), s.suite);
    }
    // A case at a time from the report, encoded as it comes: the run's cases are never held.
    let count = 0;
    const counted = async function* () {
      for await (const c of cases()) {
        count++;
        yield c;
      }
    };
    const { file, added } = await appendRun(
      dir,
      { ...run, ...(git.commit || git.branch ? { git } : {}) },
      counted(),
      { onStaleLock: (note) => io.stderr(`history: ${note}\n`) },
    );
    io.stderr(
      added
        ? `history: added run ${run.run_id} (${countOf(count, 'case')}) to ${relative(io.cwd, file)}\n`
        : `history: run ${run.run_id} is already in ${relative(io.cwd, dir) || '.'}; skipped\n`,
    );
  }
  return 0;
}

/**
 * The run a suite's baseline file was accepted from, or null when it cannot be read. A file
 * where a run keeps it (`<dir>/<suite>.json`) is walked for its head, not parsed whole (a
 * 100,000-case baseline parsed whole put 250 MB on `history add`); any other is read whole.
 */
async function baselineSource(file: string, suite: string): Promise<string | null> {
  try {
    if (baselinePathOrNull(dirname(file), suite) === file)
      return (await SuiteBaseline.check(dirname(file), suite))?.source_run ?? null;
    const source = (JSON.parse(await readBoundedText(file, READ_LIMITS.baseline)) as { source_run?: unknown })
      .source_run;
    return typeof source === 'string' ? source : null;
  } catch {
    return null;
  }
}

function baselinePathOrNull(dir: string, suite: string): string | null {
  try {
    return baselinePath(dir, suite);
  } catch {
    return null;
  }
}

function reportProblems(history: Pick<History, 'problems'>, io: CliIO): void {
  for (const p of history.problems.slice(0, 10))
    io.stderr(
      `driftcheck history: warning: ${relative(io.cwd, p.file)}:${p.line}: ${p.reason}; line skipped\n`,
    );
  if (history.problems.length > 10)
    io.stderr(`driftcheck history: warning: ${history.problems.length - 10} more skipped line(s)\n`);
}
