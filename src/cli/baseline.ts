import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import { acceptResults, loadBaselines } from '../run/run-suites.js';
import type { CliIO } from './io.js';
import { readReportAt } from './report-file.js';

/** `driftcheck baseline accept RUN_DIR [--case ID…]`: promote a run's results to baselines/. */
export async function baselineCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { case: { type: 'string', multiple: true }, 'baseline-dir': { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const [action, runDir, ...extra] = positionals;
  if (action !== 'accept' || !runDir || extra.length) {
    throw new UsageError(
      'usage: driftcheck baseline accept RUN_DIR [--case ID…]  (RUN_DIR is a folder under reports/, or reports/latest)',
    );
  }
  const report = await readReportAt(resolve(io.cwd, runDir));
  if (report.run.status !== 'completed') {
    io.stderr(
      `note: run ${report.run.id} is ${report.run.status}; only the samples it finished are accepted\n`,
    );
  }
  const wanted = (values.case ?? [])
    .flatMap((c) => c.split(','))
    .map((c) => c.trim())
    .filter(Boolean);
  let selection: Map<string, string[]> | undefined;
  if (wanted.length) {
    selection = new Map();
    const matched = new Set<string>();
    for (const c of report.cases) {
      for (const w of wanted) {
        if (w !== c.case && w !== `${c.suite}/${c.case}`) continue;
        matched.add(w);
        const ids = selection.get(c.suite) ?? [];
        if (!ids.includes(c.case)) ids.push(c.case);
        selection.set(c.suite, ids);
      }
    }
    const missing = wanted.filter((w) => !matched.has(w));
    if (missing.length)
      throw new UsageError(
        `--case: no case ${missing.map((m) => `'${m}'`).join(', ')} in run ${report.run.id} (use a case id or suite/case)`,
      );
  }
  const baselineDir = resolve(io.cwd, values['baseline-dir'] ?? 'baselines');
  const suites = report.suites.filter((s) => !selection || selection.has(s.suite));
  const written = await acceptResults(
    baselineDir,
    report,
    suites,
    await loadBaselines(baselineDir, suites),
    selection,
  );
  for (const file of written) io.stdout(`baseline written: ${relative(io.cwd, file)}\n`);
  if (!written.length) io.stdout('nothing to accept: the run has no finished samples\n');
  return 0;
}
