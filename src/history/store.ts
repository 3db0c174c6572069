import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { FileError } from '../errors.js';
import { encodeBaselineAccepted, encodeRun } from './encode.js';
import type { BaselineAcceptedInput, HistoryCaseInput, HistoryRunInput } from './types.js';

/** `2026-11.jsonl`: one file per month (UTC) keeps files small enough to commit and diff. */
export function monthFile(isoTime: string): string {
  const month = /^(\d{4}-\d{2})-/.exec(isoTime)?.[1];
  if (!month) throw new FileError(isoTime, 'not an ISO date-time: cannot pick the history month file');
  return `${month}.jsonl`;
}

/**
 * Appends one run (its record line, then one line per case) to the month file of its start.
 * The whole run goes down in ONE write on an O_APPEND descriptor: the kernel positions each
 * append at the end atomically, so two runs appending at once never interleave or tear lines.
 */
export async function appendRun(
  dir: string,
  run: HistoryRunInput,
  cases: readonly HistoryCaseInput[],
): Promise<string> {
  return appendText(dir, monthFile(run.started_at), encodeRun(run, cases));
}

/** Records a baseline acceptance, so the slow-drift detector of that suite starts over. */
export async function appendBaselineAccepted(dir: string, event: BaselineAcceptedInput): Promise<string> {
  return appendText(dir, monthFile(event.at), encodeBaselineAccepted(event));
}

async function appendText(dir: string, name: string, text: string): Promise<string> {
  const file = join(dir, name);
  const bytes = Buffer.from(text, 'utf8');
  try {
    await mkdir(dir, { recursive: true });
    const handle = await open(file, 'a');
    try {
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
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new FileError(
      file,
      `cannot append to the history (${code}); check the folder exists and is writable`,
      {
        cause: error,
      },
    );
  }
  return file;
}
