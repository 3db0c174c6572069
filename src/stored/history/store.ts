import { type FileHandle, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { FileError } from '../../util/errors.js';
import { lockFolder } from '../../util/lock.js';
import { hasRun } from './dedupe.js';
import { encodeBaselineAccepted, encodeRun, encodeRunOf } from './encode.js';
import type { BaselineAcceptedInput, HistoryCaseInput, HistoryRunInput } from './types.js';

/** The month (UTC) of an ISO date-time, `2026-11`; null for a text that is not one. */
export function monthOf(isoTime: string): string | null {
  return /^(\d{4}-\d{2})-\d{2}T/.exec(isoTime)?.[1] ?? null;
}

/**
 * `2026-11.jsonl`: one file per month (UTC) keeps files small enough to commit and diff. A
 * run's start is checked where it is read (readRunForHistory); a live run's is always one.
 */
export function monthFile(isoTime: string): string {
  const month = monthOf(isoTime);
  if (!month) throw new Error(`not an ISO date-time: ${JSON.stringify(isoTime)}`);
  return `${month}.jsonl`;
}

/** How a history append is told about the store's lock. */
export interface AppendOptions {
  /** Told when a lock left by a killed process is taken over. */
  onStaleLock?: (note: string) => void;
}

/**
 * Appends one run (its record line, then one line per case) to the month file of its start,
 * unless the history already holds it as it is now (adding a run twice is a no-op). The
 * look and the append happen under the history folder's lock, so two processes adding the
 * same run at once store it once. The whole run goes down in ONE write on an O_APPEND
 * descriptor, so even a writer that ignores the lock never interleaves lines with it.
 */
export async function appendRun(
  dir: string,
  run: HistoryRunInput,
  /** Its cases, or its cases read one at a time (encoded before the lock is taken). */
  cases: readonly HistoryCaseInput[] | AsyncIterable<HistoryCaseInput>,
  options: AppendOptions = {},
): Promise<{ file: string; added: boolean }> {
  const text = Symbol.asyncIterator in cases ? await encodeRunOf(run, cases) : null;
  return appendText(
    dir,
    monthFile(run.started_at),
    () => text ?? encodeRun(run, cases as readonly HistoryCaseInput[]),
    options,
    (file) => hasRun(file, run),
  );
}

/** Records a baseline acceptance, so the slow-drift detector of that suite starts over. */
export async function appendBaselineAccepted(
  dir: string,
  event: BaselineAcceptedInput,
  options: AppendOptions = {},
): Promise<string> {
  return (await appendText(dir, monthFile(event.at), () => encodeBaselineAccepted(event), options)).file;
}

/** A history append waits this long for another one to finish before giving up (exit 2). */
const LOCK_WAIT_MS = 60_000;

async function appendText(
  dir: string,
  name: string,
  text: () => string,
  options: AppendOptions,
  present?: (file: string) => Promise<boolean>,
): Promise<{ file: string; added: boolean }> {
  const file = join(dir, name);
  await mkdir(dir, { recursive: true }).catch((error: unknown) => {
    throw cannotAppend(file, error);
  });
  // Appends take milliseconds: a second one waits its turn rather than failing a CI job.
  const lock = await lockFolder(dir, {
    what: `history folder ${dir}`,
    waitMs: LOCK_WAIT_MS,
    ...(options.onStaleLock ? { onStale: options.onStaleLock } : {}),
  });
  try {
    if (present && (await present(file))) return { file, added: false };
    await appendBytes(file, text());
    return { file, added: true };
  } finally {
    lock.release();
  }
}

async function appendBytes(file: string, text: string): Promise<void> {
  try {
    const handle = await open(file, 'a+');
    try {
      // A writer killed mid-line left a torn last line: start on a line of our own, or our
      // first line would be glued to the fragment and skipped with it as corrupt.
      const bytes = Buffer.from(((await endsMidLine(handle)) ? '\n' : '') + text, 'utf8');
      let written = 0;
      // One write() in practice; the loop only guards against a short write (disk full,
      // signal), where finishing the lines beats leaving half of one.
      while (written < bytes.length) {
        const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
        written += bytesWritten;
      }
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw cannotAppend(file, error);
  }
}

async function endsMidLine(handle: FileHandle): Promise<boolean> {
  const { size } = await handle.stat();
  if (size === 0) return false;
  const { buffer } = await handle.read({ buffer: Buffer.alloc(1), position: size - 1 });
  return buffer[0] !== 0x0a;
}

function cannotAppend(file: string, error: unknown): FileError {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  return new FileError(
    file,
    `cannot append to the history (${code}); check the folder exists and is writable`,
    { cause: error },
  );
}
