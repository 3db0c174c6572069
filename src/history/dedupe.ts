import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/**
 * Whether a month file of the history already holds this run as it is now: a run line
 * with its id, start and end. Adding the same run twice is a no-op; a run that was paused and has since been
 * resumed to its end has another end, so it is appended, and the reader keeps the last.
 */
export async function hasRun(
  file: string,
  run: { run_id: string; started_at: string; finished_at: string },
): Promise<boolean> {
  const input = createReadStream(file, 'utf8');
  // A missing month file simply holds no run.
  const missing = new Promise<boolean>((resolve) => input.once('error', () => resolve(false)));
  const scan = (async () => {
    // The run line's key order is fixed (encodeRun): id, start, end.
    const needle = `"id":${JSON.stringify(run.run_id)},"start":${JSON.stringify(run.started_at)},"end":${JSON.stringify(run.finished_at)}`;
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      if (line.startsWith('{"t":"run"') && line.includes(needle)) return true;
    }
    return false;
  })().catch(() => false);
  return Promise.race([missing, scan]);
}
