import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';

/** Append-only record of finished samples: `reports/<run-id>/results.jsonl`. */
export interface Journal {
  readonly file: string;
  /**
   * Called the moment a sample finishes with its (already redacted) JSON line. The line
   * reaches the OS before the event loop next waits for I/O, together with the others
   * finished in the same turn.
   */
  appendLine(line: string): void;
  /** Appends a record that is not a sample (run, plan, end) as one line. */
  appendRecord(record: object): void;
  /**
   * Appends one line given in parts already encoded (a large suite's plan record, made a
   * part at a time outside the heap), after the lines before it, at once.
   */
  appendLineParts(parts: readonly Uint8Array[]): void;
  /** Writes what is pending now (close does too). */
  flush(): void;
  close(): void;
}

/** Past this many pending characters the lines go out at once, before the turn ends. */
const MAX_PENDING_CHARS = 1 << 20;

/**
 * Opens the journal for appending. The lines of the samples that finish in one turn of
 * the event loop go out in one `writeSync` at the end of that turn (`setImmediate`): with
 * instant answers a dozen lines per system call instead of one. A `kill -9` can at worst
 * lose that turn's lines (those samples are sent again on resume) or tear the last line
 * (readJournal skips it), never reorder or lose an earlier one.
 */
export function openJournal(file: string): Journal {
  const fd = openSync(file, 'a+');
  let open = true;
  // A run killed mid-write leaves a torn last line: start on a line of our own, so the
  // first new line is not glued to it (and lost to the next resume).
  let pending = endsMidLine(fd) ? '\n' : '';
  let scheduled: NodeJS.Immediate | null = null;
  const flush = () => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = null;
    if (pending === '' || !open) return;
    const text = pending;
    pending = '';
    writeSync(fd, text);
  };
  const append = (line: string): void => {
    pending += `${line}\n`;
    // Thousands of samples finishing in one turn must not gather into one string without end.
    if (pending.length >= MAX_PENDING_CHARS) flush();
    else scheduled ??= setImmediate(flush);
  };
  return {
    file,
    appendLine: append,
    appendRecord: (record) => append(JSON.stringify(record)),
    appendLineParts(parts) {
      flush();
      if (!open) return;
      for (const part of parts) writeSync(fd, part);
      writeSync(fd, '\n');
    },
    flush,
    close() {
      flush();
      if (open) closeSync(fd);
      open = false;
    },
  };
}

function endsMidLine(fd: number): boolean {
  const { size } = fstatSync(fd);
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}
