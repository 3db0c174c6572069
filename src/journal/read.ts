import { TooLargeError } from '../errors.js';
import { READ_LIMITS, readBoundedLines } from '../util/bounded-read.js';
import { checkedRecordOf, type JournalRecord, type PlanRecord, type RunRecord } from './records.js';

export interface JournalReadStats {
  /** Lines that were not a record (a torn last line after a crash, foreign text, JSON nested too deep), with their numbers. */
  skipped: number[];
  /**
   * Of those, the lines of a record's kind with a field of the wrong type (edited by hand, or
   * not driftcheck's), with what is wrong: skipped like a damaged line, never folded.
   */
  malformed?: { line: number; problem: string }[];
}

/** More damaged or foreign lines than this, and the file is no journal (their numbers are kept in memory). */
const MAX_SKIPPED = 10_000;

/**
 * Streams a journal's records in file order, one line at a time, so that reading a run of
 * any size holds one line (the read is bounded: READ_LIMITS.journal). A damaged or foreign
 * line, or a record whose fields have the wrong types, is counted in `stats.skipped` and
 * passed over: a torn last line after a crash costs that sample, which `--resume` sends
 * again. A missing file is an empty journal.
 */
export async function* readJournal(
  file: string,
  stats: JournalReadStats = { skipped: [] },
): AsyncGenerator<JournalRecord> {
  const lines = readBoundedLines(file, READ_LIMITS.journal);
  let number = 0;
  try {
    for await (const line of lines) {
      number++;
      if (line.trim() === '') continue;
      let record: ReturnType<typeof checkedRecordOf>;
      try {
        // A line nested deeper than driftcheck writes is refused by the shape check itself.
        record = checkedRecordOf(JSON.parse(line));
      } catch {
        record = null;
      }
      if (record !== null && !('problem' in record)) {
        yield record;
        continue;
      }
      if (record) (stats.malformed ??= []).push({ line: number, problem: record.problem });
      if (stats.skipped.push(number) > MAX_SKIPPED)
        throw new TooLargeError(
          file,
          `more than ${MAX_SKIPPED} lines are not journal records`,
          "check that this is a run folder's results.jsonl",
        );
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
}

/** A journal's head: its run record and plan records, read up to the first sample (a merge checks shards with it). */
export async function readJournalHead(file: string): Promise<{ run: RunRecord | null; plans: PlanRecord[] }> {
  let run: RunRecord | null = null;
  const plans: PlanRecord[] = [];
  for await (const record of readJournal(file)) {
    if (record.type === 'run') run ??= record;
    else if (record.type === 'plan') plans.push(record);
    else break;
  }
  return { run, plans };
}
