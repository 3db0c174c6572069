import type { StoredReport } from '../report/read.js';
import type { CaseEntry } from '../types.js';
import { baselineFromEntries } from './build.js';
import { readBaseline, writeBaseline } from './store.js';

/**
 * Promotes a stored run to baselines (`--update-baselines`, `baseline accept`): one file per
 * suite, written from the report's entries, one suite in memory at a time. `selection`
 * limits it to some case ids per suite; every other case of an existing baseline is kept.
 * Returns the files written.
 */
export async function acceptReport(
  baselineDir: string,
  report: StoredReport,
  selection?: ReadonlyMap<string, readonly string[]>,
): Promise<string[]> {
  const written: string[] = [];
  const suites = new Map(report.head.suites.map((s) => [s.suite, s]));
  let current: string | null = null;
  let cases: CaseEntry[] = [];
  const flush = async () => {
    const info = current === null ? undefined : suites.get(current);
    const only = current === null ? undefined : selection?.get(current);
    const answered = cases.some((c) => c.samples.sent > 0 && (!only || only.includes(c.case)));
    if (info && answered && (!selection || only)) {
      const baseline = baselineFromEntries({
        suite: info.suite,
        service: info.service,
        model: info.requested_model,
        run_id: report.head.run.id,
        cases,
        previous: await readBaseline(baselineDir, info.suite),
        ...(only ? { only } : {}),
      });
      written.push(await writeBaseline(baselineDir, baseline));
    }
    cases = [];
  };
  for await (const c of report.cases()) {
    if (c.suite !== current) {
      await flush();
      current = c.suite;
    }
    cases.push(c);
  }
  await flush();
  return written;
}
