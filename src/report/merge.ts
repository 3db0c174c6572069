import type { StopReason } from '../run/execute.js';
import type { CaseResult, Report, RunInfo, Suite } from '../types.js';

/** What merging shard reports yields before drift is recomputed against the baselines. */
export interface MergedRuns {
  run: Omit<RunInfo, 'status' | 'exit_code' | 'stop_reason'>;
  stop: StopReason | null;
  suites: Pick<Suite, 'suite' | 'file' | 'service' | 'model'>[];
  results: CaseResult[];
  /** True when the reports are every shard of one plan (1/N … N/N), or unsharded runs. */
  complete: boolean;
  problems: string[];
}

/** Worst first: an access stop outranks a budget pause, which outranks an interrupt. */
const STOP_RANK: Record<StopReason['kind'], number> = { access: 0, paused: 1, interrupted: 2 };

/**
 * Combines shard reports into one run: every case once (a case in two reports is a
 * problem, not a silent pick), the worst stop, the earliest start and latest finish.
 * Pure; the caller re-diffs against baselines so the verdict equals an unsharded run's.
 */
export function mergeRuns(reports: readonly Report[], id: string, command: string[]): MergedRuns {
  const problems: string[] = [];
  const byKey = new Map<string, { result: CaseResult; from: string }>();
  const suites = new Map<string, Pick<Suite, 'suite' | 'file' | 'service' | 'model'>>();
  for (const report of reports) {
    for (const s of report.suites) {
      if (!suites.has(s.suite))
        suites.set(s.suite, { suite: s.suite, file: s.file, service: s.service, model: s.requested_model });
    }
    for (const c of report.cases) {
      const seen = byKey.get(c.key);
      if (seen) problems.push(`case ${c.key} is in both run ${seen.from} and run ${report.run.id}`);
      else byKey.set(c.key, { result: { ...c, drift: [] }, from: report.run.id });
    }
  }
  const shards = reports.map((r) => r.run.shard);
  const totals = new Set(shards.map((s) => s?.total ?? 1));
  const indexes = new Set(shards.map((s) => s?.index ?? 1));
  const total = [...totals][0] ?? 1;
  const complete = totals.size === 1 && indexes.size === total && reports.length === total;
  if (totals.size > 1)
    problems.push(`the reports come from different shard counts (${[...totals].join(', ')})`);
  else if (!complete) {
    const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !indexes.has(i));
    if (missing.length)
      problems.push(
        `shard(s) ${missing.map((i) => `${i}/${total}`).join(', ')} missing: the merged report is partial`,
      );
  }

  const stops = reports
    .map((r) => stopOf(r))
    .filter((s): s is StopReason => s !== null)
    .sort((a, b) => STOP_RANK[a.kind] - STOP_RANK[b.kind]);
  const models = new Set(reports.map((r) => r.run.candidate_model));
  return {
    run: {
      id,
      started_at: reports.map((r) => r.run.started_at).sort()[0] ?? new Date().toISOString(),
      finished_at:
        reports
          .map((r) => r.run.finished_at)
          .sort()
          .at(-1) ?? new Date().toISOString(),
      command,
      driftcheck_version: reports[0]?.run.driftcheck_version ?? '',
      sim: reports.some((r) => r.run.sim),
      candidate_model: models.size === 1 ? [...models][0]! : null,
      shard: null,
    },
    stop: stops[0] ?? null,
    suites: [...suites.values()],
    // Plan order of an unsharded run: suites in order, then cases, then repeats.
    results: [...byKey.values()].map((v) => v.result).sort(compareCases(reports)),
    complete,
    problems,
  };
}

function stopOf(report: Report): StopReason | null {
  if (report.run.status === 'completed') return null;
  if (report.run.status === 'interrupted')
    return { kind: 'interrupted', error: null, signal: report.run.exit_code === 143 ? 'SIGTERM' : 'SIGINT' };
  const error = report.run.stop_reason;
  if (!error) return null;
  return { kind: report.run.exit_code === 4 ? 'access' : 'paused', error };
}

/**
 * Orders cases as the unsharded plan would. Shards deal cases round-robin over the global
 * case order, so the j-th distinct case of shard I/N was case (I − 1) + N·j of the plan.
 */
function compareCases(reports: readonly Report[]): (a: CaseResult, b: CaseResult) => number {
  const rank = new Map<string, number>();
  reports.forEach((r, reportIndex) => {
    let j = 0;
    for (const c of r.cases) {
      const id = `${c.suite}/${c.case}`;
      if (rank.has(id)) continue;
      const shard = r.run.shard;
      rank.set(id, shard ? shard.index - 1 + shard.total * j : reportIndex * 1e9 + j);
      j++;
    }
  });
  return (a, b) =>
    (rank.get(`${a.suite}/${a.case}`) ?? 0) - (rank.get(`${b.suite}/${b.case}`) ?? 0) || a.repeat - b.repeat;
}
