import type { History, HistoryCaseInput, HistoryRunInput } from '../stored/history/types.js';

/** One night of one case: the run it came from and what a trend reads of that case's entry. */
export interface CaseNight {
  run: HistoryRunInput;
  entry: Pick<
    HistoryCaseInput,
    'suite' | 'case' | 'status' | 'passes' | 'samples' | 'tools' | 'loop' | 'ttft_p50_ms'
  >;
}

/** `suite/case` → its nights in time order; built in one pass over the runs. */
export function nightsByCase(history: History): Map<string, CaseNight[]> {
  const out = new Map<string, CaseNight[]>();
  for (const run of history.runs) {
    for (const entry of run.cases) {
      const id = `${entry.suite}/${entry.case}`;
      const list = out.get(id);
      if (list) list.push({ run, entry });
      else out.set(id, [{ run, entry }]);
    }
  }
  return out;
}

/**
 * Where a suite's slow-drift detector starts over: the latest baseline acceptance, whether
 * recorded as an event or seen as a new `baseline_source_run` on the run line. Returns the
 * index of the first night to use (0 when the suite never reset).
 */
export function resetIndex(
  history: Pick<History, 'baselines'>,
  suite: string,
  nights: readonly CaseNight[],
): number {
  const source = (night: CaseNight): string | null =>
    night.run.suites.find((s) => s.suite === suite)?.baseline_source_run ?? null;
  let start = 0;
  nights.forEach((night, i) => {
    if (i > 0 && source(night) !== null && source(night) !== source(nights[i - 1]!)) start = i;
  });
  const accepted = history.baselines.filter((b) => b.suite === suite);
  const last = accepted[accepted.length - 1];
  if (last) {
    const after = nights.findIndex((n) => n.run.started_at > last.at);
    start = Math.max(start, after === -1 ? nights.length : after);
  }
  return start;
}
