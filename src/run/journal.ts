import { closeSync, openSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { CaseResult } from '../types.js';

/** Append-only record of finished samples: `reports/<run-id>/results.jsonl`. */
export interface Journal {
  readonly file: string;
  /** Called the moment a sample finishes with its (already redacted) JSON line; in the OS before this returns. */
  appendLine(line: string): void;
  close(): void;
}

/**
 * Opens the journal for appending. Each result is one `writeSync` of one line, so a
 * `kill -9` can at worst tear the last line, never reorder or lose an earlier one.
 */
export function openJournal(file: string): Journal {
  const fd = openSync(file, 'a');
  let open = true;
  return {
    file,
    appendLine(line) {
      writeSync(fd, `${line}\n`);
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

export interface JournalContents {
  results: CaseResult[];
  /** Lines that could not be parsed (a torn last line after a crash). */
  skipped: number;
}

/** Reads a journal, tolerating a torn or corrupt line: the sample is simply run again. */
export async function readJournal(file: string): Promise<JournalContents> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { results: [], skipped: 0 };
    throw error;
  }
  const results: CaseResult[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = JSON.parse(line) as CaseResult;
      if (typeof parsed?.key === 'string' && typeof parsed.status === 'string') results.push(parsed);
      else skipped++;
    } catch {
      skipped++;
    }
  }
  return { results, skipped };
}
