import { readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '../types.js';
import { writeFileAtomic } from '../util/atomic.js';

/** Writes `report.json` atomically; `redact` is the last guard against a key reaching disk. */
export async function writeJsonReport(
  runDir: string,
  report: Report,
  redact: (text: string) => string,
): Promise<string> {
  const file = join(runDir, 'report.json');
  await writeFileAtomic(file, `${redact(JSON.stringify(report, null, 2))}\n`);
  return file;
}

/**
 * Points `reports/latest` at the newest run: a relative symlink where the platform allows
 * it, else a `latest` text file holding the run id.
 */
export async function updateLatest(reportDir: string, runId: string): Promise<void> {
  const link = join(reportDir, 'latest');
  try {
    if ((await readlink(link).catch(() => null)) === runId) return;
    await rm(link, { force: true, recursive: true });
    await symlink(runId, link, 'dir');
  } catch {
    await writeFile(link, `${runId}\n`);
  }
}
