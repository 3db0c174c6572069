/**
 * driftcheck's programmatic API — the same functions the CLI is built on.
 * Load suites, run them, diff against baselines, render the results.
 */

export { acceptReport } from './baseline/accept.js';
export { baselineCase, baselineFromEntries } from './baseline/build.js';
export { type DiffOptions, diffCase, suiteDrift } from './fold/drift/diff.js';
export { similarity } from './util/similarity.js';
export { readBaseline, writeBaseline } from './stored/baseline/store.js';
export type { CheckContext, CheckDefinition, CheckRequest, CheckType } from './checks/registry.js';
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
} from './util/errors.js';
export { RunFold, type FoldOptions } from './fold/fold.js';
export { foldRunDirs } from './fold/run-dirs.js';
export { foldSuite } from './fold/suite.js';
export { readJournal, readJournalPlans } from './stored/journal/read.js';
export type { EndRecord, JournalRecord, PlanRecord, RunRecord, StepLine } from './stored/journal/records.js';
export { renderConsoleSummary } from './report/console.js';
export type { RecordedField } from './record/field.js';
export { RECORDED } from './record/registry.js';
export { createReporters, REPORTERS } from './report/outputs.js';
export { loadReport, openReport } from './stored/report/read.js';
export type { FoldedSuiteEvent, Reporter } from './fold/reporter.js';
export { type PlannedCase, planRun } from './run/plan.js';
export type { PlanOptions } from './stored/journal/records.js';
export { type RunSuitesOptions, type RunSuitesResult, runSuites } from './cli/run-suites.js';
export { classifyHttpFailure } from './service/classify.js';
export { createServiceClient, type ServiceClientOptions } from './service/client.js';
export { createRedactor } from './service/redact.js';
export { generateSimKey, type Simulator, type SimulatorOptions, startSimulator } from './sim/server.js';
export { isAlias } from './adapters/alias.js';
export { type LoadSuitesOptions, loadSuites, readSuiteCases } from './suite/load.js';
export { parseSuite, parseSuiteSpec } from './suite/parse.js';
export { expandSuite } from './suite/expand.js';
export { TABLE_FORMATS } from './suite/sources/index.js';
export type { ProblemSink, Row, TableFormat, TableRows } from './suite/sources/types.js';
// The shared domain types, each from the module that owns it.
export type { ExitCode } from './util/exit-codes.js';
export type { JudgeCall, JudgeSpec } from './checks/judge.js';
export type { CheckResult, Expectation } from './checks/registry.js';
export type { Config, ServiceConfig, ServiceKind } from './config/types.js';
export type { CaseError, ErrorKind, Usage } from './core/answer.js';
export type { ModelPrice, Prices } from './core/catalog.js';
export type { Message, MessageToolCall, ProviderPreferences, RequestParams, Role } from './core/messages.js';
export type { RunStatus, StopReason } from './core/stops.js';
export type { CaseStatus } from './core/words.js';
export type { Completion, ServedBy } from './record/answer.js';
export type { CallOutcome, CompletionRequest, ServiceClient } from './service/types.js';
export type { Drift, DriftKind, DriftSeverity } from './record/drift-kinds.js';
export type { Baseline, BaselineCase, BaselineProvenance, LatencySketch } from './stored/baseline/types.js';
export type { SampleResult } from './stored/journal/records.js';
export type {
  CaseDetail,
  CaseEntry,
  CaseHistory,
  DistinctAnswer,
  ModelStop,
  PassRate,
  Provenance,
  RecheckInfo,
  Report,
  ReportHead,
  RunBail,
  RunInfo,
  SampleCounts,
  SampleStats,
  SkippedSuite,
  SuiteReport,
  SuiteUsage,
  Summary,
  TokenTotals,
  UsageTotals,
} from './stored/report/types.js';
export type {
  ContentNormalization,
  ContentTolerance,
  DriftTolerance,
  LatencyTolerance,
  SimDirective,
  SimFault,
  SimToolFault,
  Suite,
  SuiteCase,
  SuiteTable,
  UsageTolerance,
} from './suite/types.js';
export type { Diagnostic, SourceLocation, Validated } from './util/errors.js';
