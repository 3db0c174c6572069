import { TooLargeError } from '../../util/errors.js';
import { open } from 'node:fs/promises';
import { READ_LIMITS, readLineSpans } from '../../util/bounded-read.js';
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
  /** `plans: false`: plan lines as driftcheck writes them are passed over undecoded (a reader that has them already). */
  options: { plans?: boolean } = {},
): AsyncGenerator<JournalRecord> {
  const lines = readLineSpans(file, READ_LIMITS.journal, options.plans === false ? notPlanLine : undefined);
  try {
    for await (const { number, text: line } of lines) {
      if (line === null || line.trim() === '') continue;
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

/** A plan line as a run writes it starts so (JSON.stringify keeps the record's key order); samples have no `type`. */
const PLAN_LINE = Buffer.from('{"type":"plan"');
const notPlanLine = (bytes: Buffer) => !bytes.subarray(0, PLAN_LINE.length).equals(PLAN_LINE);

/**
 * A journal's run record and every plan record, wherever they are (a run writes a suite's
 * plan when it reaches the suite: journal 5), read in one pass that decodes only their
 * lines. A merge checks its shards with them; `--resume` checks the tables they name.
 */
export async function readJournalPlans(
  file: string,
): Promise<{ run: RunRecord | null; plans: PlanRecord[] }> {
  let run: RunRecord | null = null;
  const plans: PlanRecord[] = [];
  for await (const { record } of journalPlanLines(file)) {
    if (record.type === 'run') run ??= record;
    else plans.push(record);
  }
  return { run, plans };
}

/** A journal's run record (its first line, when driftcheck wrote it), without reading its plans. */
export async function readJournalRun(file: string): Promise<RunRecord | null> {
  for await (const { record } of journalPlanLines(file)) if (record.type === 'run') return record;
  return null;
}

const RUN_OR_PLAN = [Buffer.from('"type":"run"'), Buffer.from('"type":"plan"')];

/**
 * The run and plan records of a journal, each with where its line is (readPlanAt reads it
 * again), in file order. Only lines that may be one are decoded: a run of 100,000 samples
 * is scanned, not parsed. Lines that are no record are passed over, as readJournal does.
 */
export async function* journalPlanLines(
  file: string,
): AsyncGenerator<{ record: RunRecord | PlanRecord; offset: number; length: number }> {
  const spans = readLineSpans(file, READ_LIMITS.journal, (bytes) =>
    RUN_OR_PLAN.some((tag) => bytes.includes(tag)),
  );
  try {
    for await (const span of spans) {
      if (span.text === null) continue;
      const record = decode(span.text);
      if (record && (record.type === 'run' || record.type === 'plan'))
        yield { record, offset: span.offset, length: span.length };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
}

/** The plan record whose line journalPlanLines found at `offset`; null when it is not one now (the file changed). */
export async function readPlanAt(file: string, offset: number, length: number): Promise<PlanRecord | null> {
  const handle = await open(file, 'r');
  try {
    const bytes = Buffer.alloc(length);
    const { bytesRead } = await handle.read(bytes, 0, length, offset);
    const record = decode(bytes.toString('utf8', 0, bytesRead));
    return record?.type === 'plan' ? record : null;
  } finally {
    await handle.close();
  }
}

function decode(line: string): JournalRecord | null {
  try {
    const record = checkedRecordOf(JSON.parse(line));
    return record === null || 'problem' in record ? null : record;
  } catch {
    return null;
  }
}
