/** The nightly history as a run uses it (loaded only when a run keeps one). */
export { historyRun } from './from-report-v2.js';
export { gitInfo } from './git.js';
export { HistoryNights } from './columns.js';
export { appendRun } from '../stored/history/store.js';
export { historyAnnotator } from './tonight.js';
