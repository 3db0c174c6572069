import { nightsByCase, type CaseNight } from './nights.js';
import { type SuiteNight, SuiteNightTally } from './suite-night.js';
import type {
  BaselineAcceptedInput,
  History,
  HistoryProblem,
  HistoryRunInput,
} from '../stored/history/types.js';

/**
 * The history as the trend page reads it: its nights (runs in time order), each case with
 * its nights, and each suite's figures per night. HistoryNights is one, read as columns; a
 * History in memory (a test's, a library caller's) is made one by trendSourceOf.
 */
export interface TrendSource {
  readonly runs: readonly HistoryRunInput[];
  readonly baselines: BaselineAcceptedInput[];
  readonly problems: HistoryProblem[];
  /** Each case (`suite/case`) with its nights in time order, cases in the order the nights first list them. */
  cases(): Iterable<[string, CaseNight[]]>;
  /** A suite's figures on the night at this index; undefined when it had no case line that night. */
  suiteNight(night: number, suite: string): SuiteNight | undefined;
}

/** A history in memory as a TrendSource (a TrendSource is returned as it is). */
export function trendSourceOf(history: History | TrendSource): TrendSource {
  if ('suiteNight' in history) return history;
  const figures = new Map<number, Map<string, SuiteNight>>();
  return {
    runs: history.runs,
    baselines: history.baselines,
    problems: history.problems,
    cases: () => nightsByCase(history),
    suiteNight: (night, suite) => {
      let byNight = figures.get(night);
      if (!byNight) {
        const tally = new SuiteNightTally();
        for (const c of history.runs[night]?.cases ?? []) tally.add(c);
        figures.set(night, (byNight = tally.close()));
      }
      return byNight.get(suite);
    },
  };
}
