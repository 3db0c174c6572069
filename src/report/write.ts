import { readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '../types.js';
import { writeChunksAtomic } from '../util/atomic.js';

/**
 * Writes `report.json` atomically, one case per line, without ever holding the whole
 * document as one string (100,000 cases make a 100 MB report). `redact` is applied to
 * every piece: the last guard against a key reaching disk.
 */
export async function writeJsonReport(
  runDir: string,
  report: Report,
  redact: (text: string) => string,
): Promise<string> {
  const file = join(runDir, 'report.json');
  const { cases, ...head } = report;
  await writeChunksAtomic(file, function* () {
    const top = JSON.stringify({ ...head, cases: [] }, null, 2);
    // Everything but the cases, pretty-printed; then the cases array, one compact case per line.
    yield redact(top.slice(0, top.lastIndexOf('[]')));
    yield '[';
    for (let i = 0; i < cases.length; i++) yield `${i ? ',' : ''}\n    ${redact(JSON.stringify(cases[i]))}`;
    yield '\n  ]\n}\n';
  });
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
