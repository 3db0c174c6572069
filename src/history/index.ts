/** The nightly history: store, reader, adapters, and the trends tonight's report shows. */
export { fromReportV1 } from './from-report.js';
export { fromReportV2, historyRun, type ReportV2Like } from './from-report-v2.js';
export { readRunForHistory, type RunForHistory } from './report-input.js';
export { gitFromEnv, gitInfo } from './git.js';
export { readHistory } from './read.js';
export { appendBaselineAccepted, appendRun, monthFile } from './store.js';
export {
  type CaseTrend,
  caseTrends,
  type NightRef,
  type StripNight,
  type TrendDrift,
  type TrendOptions,
} from './trends.js';
export type * from './types.js';
export { historyAnnotator, STRIP_NIGHTS, type TonightRun } from './tonight.js';
