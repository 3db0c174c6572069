import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { checkedRecordOf, type JournalRecord, type PlanRecord, type RunRecord } from './records.js';

export interface JournalReadStats {
  /** Lines that were not a record (a torn last line after a crash, or foreign text), with their numbers. */
  skipped: number[];
  /**
   * Of those, the lines of a record's kind with a field of the wrong type (edited by hand, or
   * not driftcheck's), with what is wrong: skipped like a damaged line, never folded.
   */
  malformed?: { line: number; problem: string }[];
}

/**
 * Streams a journal's records in file order, one line at a time, so that reading a run of
 * any size holds one line. A damaged or foreign line, or a record whose fields have the
 * wrong types, is counted in `stats.skipped` and passed over: a torn last line after a crash costs that sample, which `--resume` sends again.
 * A missing file is an empty journal.
 */
export async function* readJournal(
  file: string,
  stats: JournalReadStats = { skipped: [] },
): AsyncGenerator<JournalRecord> {
  const stream = createReadStream(file, { encoding: 'utf8' });
  const opened = await new Promise<boolean>((resolve, reject) => {
    stream.once('ready', () => resolve(true));
    stream.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' ? resolve(false) : reject(error),
    );
  });
  if (!opened) return;
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let number = 0;
  for await (const line of lines) {
    number++;
    if (line.trim() === '') continue;
    let record: ReturnType<typeof checkedRecordOf>;
    try {
      record = checkedRecordOf(JSON.parse(line));
    } catch {
      record = null;
    }
    if (record === null || 'problem' in record) {
      stats.skipped.push(number);
      if (record) (stats.malformed ??= []).push({ line: number, problem: record.problem });
    } else yield record;
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
