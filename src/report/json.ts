import { randomBytes } from 'node:crypto';
import { readlink, rename, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReportHead } from '../stored/report/types.js';
import { writeFileAtomic } from '../util/atomic.js';
import { SpooledFile } from '../util/spool.js';
import { caseLine } from '../stored/report/case-line.js';
import type { Reporter } from '../fold/reporter.js';

/**
 * `report.json`: the head (run, summary, suites) pretty-printed, then the cases array, one
 * case line per case (caseLine: what a reader restores is left out) — written as suites are folded (through a spool file), assembled
 * atomically at the end. `readReport` streams it back in the same layout.
 */
export function jsonReporter(dir: string): Reporter {
  const file = new SpooledFile(dir, 'report.json');
  let written = 0;
  return {
    // Not async: the spool answers a promise only when it goes to disk (see SpooledFile.write).
    onCase({ entry, suite }) {
      return file.write(`${written++ ? ',' : ''}\n    ${JSON.stringify(caseLine(entry, suite))}`);
    },
    async onEnd(head) {
      return [await file.finish(reportTop(head), '\n  ]\n}\n')];
    },
    onAbort: () => file.discard(),
  };
}

/** Everything before the first case: the head, pretty-printed, up to and with `"cases": [`. */
export function reportTop(head: ReportHead): string {
  // Key order matters: `--resume` and readers find the run's status in the file's first lines.
  const top = JSON.stringify(
    {
      schema_version: head.schema_version,
      run: head.run,
      summary: head.summary,
      suites: head.suites,
      cases: [],
    },
    null,
    2,
  );
  return `${top.slice(0, top.lastIndexOf('[]'))}[`;
}

/**
 * Points `reports/latest` at the newest run: a relative symlink where the platform allows
 * it, else a `latest` text file holding the run id. Replaced in one step — a temporary link
 * renamed over it — because two runs finishing into one `reports/` at once each removed the
 * link and created it again: one found the other's new link in the way and died with
 * EISDIR writing the fallback file through it.
 */
export async function updateLatest(reportDir: string, runId: string): Promise<void> {
  const link = join(reportDir, 'latest');
  if ((await readlink(link).catch(() => null)) === runId) return;
  const temp = join(reportDir, `.latest.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await symlink(runId, temp, 'dir');
  } catch {
    await writeFileAtomic(link, `${runId}\n`);
    return;
  }
  try {
    await rename(temp, link).catch(async (error: NodeJS.ErrnoException) => {
      // A real folder named `latest` (made by hand) cannot be renamed over: it goes, as it always did.
      if (error.code !== 'EISDIR' && error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      await rm(link, { force: true, recursive: true });
      await rename(temp, link);
    });
  } finally {
    await rm(temp, { force: true });
  }
}
