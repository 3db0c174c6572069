import { readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReportHead } from '../types.js';
import { writeChunksAtomic } from '../util/atomic.js';
import { Spool } from '../util/spool.js';
import type { Reporter } from './reporter.js';

/**
 * `report.json`: the head (run, summary, suites) pretty-printed, then the cases array, one
 * compact case per line — written as suites are folded (through a spool file), assembled
 * atomically at the end. `readReport` streams it back in the same layout.
 */
export function jsonReporter(dir: string, redact: (text: string) => string = (t) => t): Reporter {
  let spool: Spool | null = null;
  let written = 0;
  return {
    async onSuite({ cases }) {
      spool ??= await Spool.open(dir, 'report.json');
      for (const c of cases) await spool.write(`${written++ ? ',' : ''}\n    ${redact(JSON.stringify(c))}`);
    },
    async onEnd(head) {
      const file = join(dir, 'report.json');
      const cases = spool;
      await writeChunksAtomic(file, async function* () {
        yield redact(reportTop(head));
        if (cases) yield* cases.read();
        yield '\n  ]\n}\n';
      });
      await spool?.remove();
      return [file];
    },
    async onAbort() {
      await spool?.remove();
    },
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
