import { READ_LIMITS, readBoundedLines } from '../../util/bounded-read.js';

/**
 * Whether a month file of the history already holds this run as it is now: a run line
 * with its id, start and end. Adding the same run twice is a no-op; a run that was paused and has since been
 * resumed to its end has another end, so it is appended, and the reader keeps the last.
 */
export async function hasRun(
  file: string,
  run: { run_id: string; started_at: string; finished_at: string },
): Promise<boolean> {
  // The run line's key order is fixed (encodeRun): id, start, end.
  const needle = `"id":${JSON.stringify(run.run_id)},"start":${JSON.stringify(run.started_at)},"end":${JSON.stringify(run.finished_at)}`;
  try {
    for await (const line of readBoundedLines(file, READ_LIMITS.history)) {
      if (line.startsWith('{"t":"run"') && line.includes(needle)) return true;
    }
  } catch (error) {
    // A missing month file simply holds no run; anything else the reader of the history says too.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return false;
}
