/**
 * driftcheck's programmatic API — the same functions the CLI is built on.
 * Load suites, run them, diff against baselines, render the results.
 */

export { acceptReport } from './baseline/accept.js';
export { baselineCase, baselineFromEntries } from './baseline/build.js';
export { type DiffOptions, diffCase, suiteDrift } from './baseline/diff.js';
export { similarity } from './baseline/similarity.js';
export { readBaseline, writeBaseline } from './baseline/store.js';
export type { CheckContext, CheckDefinition, CheckRequest } from './checks/registry.js';
export { runChecks } from './checks/run.js';
export { main } from './cli/main.js';
export { defaultConfig } from './config/defaults.js';
export { loadConfig } from './config/load.js';
export { parseConfig } from './config/parse.js';
export {
  DriftcheckError,
  FileError,
  formatDiagnostic,
  InputError,
  PreflightError,
  UsageError,
} from './errors.js';
export { RunFold, type FoldOptions } from './fold/fold.js';
export { foldRunDirs } from './fold/run-dirs.js';
export { foldSuite } from './fold/suite.js';
export { readJournal, readJournalPlans } from './journal/read.js';
export type { EndRecord, JournalRecord, PlanRecord, RunRecord } from './journal/records.js';
export { renderConsoleSummary } from './report/console.js';
export type { RecordedField } from './record/field.js';
export { RECORDED } from './record/registry.js';
export { createReporters, REPORTERS } from './report/outputs.js';
export { loadReport, openReport } from './report/read.js';
export type { FoldedSuiteEvent, Reporter } from './report/reporter.js';
export { type PlannedCase, type PlanOptions, planRun } from './run/plan.js';
export { type RunSuitesOptions, type RunSuitesResult, runSuites } from './run/run-suites.js';
export { classifyHttpFailure } from './service/classify.js';
export { createServiceClient, type ServiceClientOptions } from './service/client.js';
export { createRedactor } from './service/redact.js';
export { generateSimKey, type Simulator, type SimulatorOptions, startSimulator } from './sim/server.js';
export { isAlias } from './suite/alias.js';
export { type LoadSuitesOptions, loadSuites, readSuiteCases } from './suite/load.js';
export { parseSuite, parseSuiteSpec } from './suite/parse.js';
export { expandSuite } from './suite/expand.js';
export { TABLE_FORMATS } from './suite/sources/index.js';
export type { ProblemSink, Row, TableFormat, TableRows } from './suite/sources/types.js';
export type * from './types.js';
