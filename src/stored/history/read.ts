import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { FileError } from '../../util/errors.js';
import { READ_LIMITS, readBoundedLines } from '../../util/bounded-read.js';
import { decodeLine, soleOf } from './encode.js';
import type {
  BaselineAcceptedInput,
  History,
  HistoryCaseInput,
  HistoryProblem,
  HistoryRun,
  HistoryRunInput,
} from './types.js';

/** `2026-11.jsonl`: the files of a history folder. */
const MONTH_FILE = /^\d{4}-\d{2}\.jsonl$/;

/**
 * Reads every month file of a history folder, line by line (streaming; no file is held
 * whole). Corrupt and foreign lines are listed in `problems` and skipped, never fatal.
 * Runs come back in start-time order, whatever order concurrent appends left them in.
 */
export async function readHistory(dir: string): Promise<History> {
  const runs: HistoryRun[] = [];
  let current: HistoryRun | null = null;
  const read = await readMonths(dir, {
    run: (run) => {
      current = { ...run, cases: [] };
      runs.push(current);
    },
    case: (entry) => current!.cases.push(entry),
  });
  return { ...read, runs: inNightOrder(runs, (run) => run) };
}

/**
 * Runs (or what holds them) in start-time order, whatever order concurrent appends left
 * them in; a run appended twice (paused, then resumed to the end) counts once, as last
 * appended (the sort is stable).
 */
export function inNightOrder<T>(items: readonly T[], runOf: (item: T) => HistoryRunInput): T[] {
  const sorted = [...items].sort((a, b) => {
    const x = runOf(a);
    const y = runOf(b);
    return cmp(x.started_at, y.started_at) || cmp(x.run_id, y.run_id);
  });
  const last = new Map(sorted.map((item, i) => [runOf(item).run_id, i]));
  return last.size < sorted.length ? sorted.filter((item, i) => last.get(runOf(item).run_id) === i) : sorted;
}

/** What a reader of the history's lines does with each run record and each case line after it. */
export interface HistorySink {
  run(run: HistoryRunInput): void;
  case(entry: HistoryCaseInput): void;
}

/**
 * Reads every month file of a history folder line by line, in file order, handing each run
 * record and each case line (after its run's) to `sink`; returns the baseline events (in
 * time order), the lines passed over and how many month files there were.
 */
export async function readMonths(
  dir: string,
  sink: HistorySink,
): Promise<Pick<History, 'baselines' | 'problems'> & { months: number }> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => MONTH_FILE.test(n)).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { baselines: [], problems: [], months: 0 };
    throw new FileError(dir, `cannot read the history folder (${code ?? 'error'})`, { cause: error });
  }
  const out = {
    baselines: [] as BaselineAcceptedInput[],
    problems: [] as HistoryProblem[],
    months: names.length,
  };
  for (const name of names) await readMonth(join(dir, name), out, sink);
  out.baselines.sort((a, b) => cmp(a.at, b.at));
  return out;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

async function readMonth(
  file: string,
  into: Pick<History, 'baselines' | 'problems'>,
  sink: HistorySink,
): Promise<void> {
  const lines = readBoundedLines(file, READ_LIMITS.history);
  let sole: ReturnType<typeof soleOf> | null = null;
  let n = 0;
  const problem = (reason: string): void => {
    into.problems.push({ file, line: n, reason } satisfies HistoryProblem);
  };
  for await (const text of lines) {
    n++;
    if (text.trim() === '') continue;
    const line = decodeLine(text);
    if (line.kind === 'skip') problem(line.reason);
    else if (line.kind === 'baseline_accepted') into.baselines.push(line.event);
    else if (line.kind === 'run') {
      sink.run(line.run);
      sole = soleOf(line.run);
    } else if (sole === null) problem('case line before any run line');
    else sink.case(line.entry(sole));
  }
}
