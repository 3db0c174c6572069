import { acceptReport } from '../baseline/accept.js';
import { refusals } from '../fold/provenance.js';
import { updateLatest } from '../report/json.js';
import { openReport } from '../stored/report/read.js';
import type { ReportHead } from '../stored/report/types.js';
import type { Opened } from './run-open.js';
import type { RunJob, RunResult } from './run-once.js';
import type { Checked } from './run-preflight.js';
import type { Sent } from './run-send.js';

/**
 * The run's end: the fold's reports written (a failure before then lets it remove them),
 * reports/latest pointed at the run, tonight appended to the history, and with
 * `update_baselines` a completed run accepted as the baseline.
 */
export async function finishRun(
  job: RunJob,
  checked: Checked,
  opened: Opened,
  sent: Sent,
): Promise<RunResult> {
  const { request, plan } = job;
  const { meta, runDir } = checked;
  const { head, files } = await opened.fold.finish();
  opened.keepReports();
  await updateLatest(plan.reportDir, meta.id);
  const history =
    opened.tonight && plan.historyDir
      ? await appendTonight(plan.historyDir, job, opened.tonight, head)
      : null;
  let baselinesWritten: string[] = [];
  let baselinesSkipped: string | null = null;
  if (meta.update_baselines) {
    if (head.run.status !== 'completed')
      baselinesSkipped = `the run is ${head.run.status}; finish it with --resume first`;
    else baselinesWritten = await acceptReport(request.baselineDir, await openReport(runDir));
  }
  return {
    report: head,
    runDir,
    files,
    baselinesWritten,
    baselinesSkipped,
    journalSkipped: opened.previous.skipped,
    redacted: sent.redacted,
    cached: sent.cached,
    spent: opened.meter ? opened.meter.spent : null,
    history,
  };
}

/**
 * Appends tonight's run to the history: a run that stopped early is recorded too (its
 * status says so), so the trend page can show paused nights. A candidate, simulator, shard
 * or filtered run is not a night: it is appended only when forced (`--history-force`), and
 * marked so.
 */
async function appendTonight(
  dir: string,
  { request, hooks }: RunJob,
  tonight: NonNullable<Opened['tonight']>,
  head: ReportHead,
): Promise<NonNullable<RunResult['history']>> {
  const refused = refusals('run_history', head.run);
  if (refused.length && !request.historyForce) {
    await tonight.annotator.discard();
    return { appended: null, refused, problems: tonight.problems };
  }
  const { appendRun, gitInfo, historyRun } = await import('../history/index.js');
  // The case lines were made as the suites were folded: the report is not read back.
  const run = historyRun(head.run, head.suites);
  if (run.provenance && refused.length) run.provenance.forced = true;
  const suites = run.suites.map((s) => ({
    ...s,
    baseline_source_run: tonight.annotator.sources.get(s.suite) ?? null,
  }));
  const git = await gitInfo(request.ciGit, request.cwd);
  const { file, added } = await appendRun(
    dir,
    { ...run, suites, git },
    tonight.annotator.lines(),
    hooks.onStaleLock ? { onStaleLock: hooks.onStaleLock } : {},
  );
  return { appended: added ? file : null, refused: [], problems: tonight.problems };
}
