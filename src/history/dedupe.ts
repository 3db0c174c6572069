import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { monthFile } from './store.js';

/** Whether the month file of `startedAt` already holds a run line for `runId` (adding twice is a no-op). */
export async function hasRun(dir: string, runId: string, startedAt: string): Promise<boolean> {
  const file = join(dir, monthFile(startedAt));
  const input = createReadStream(file, 'utf8');
  // A missing month file simply holds no run.
  const missing = new Promise<boolean>((resolve) => input.once('error', () => resolve(false)));
  const scan = (async () => {
    const needle = `"id":${JSON.stringify(runId)}`;
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      if (line.startsWith('{"t":"run"') && line.includes(needle)) return true;
    }
    return false;
  })().catch(() => false);
  return Promise.race([missing, scan]);
}
