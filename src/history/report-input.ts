import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FileError } from '../errors.js';
import { fromReportV1, type ReportV1Like } from './from-report.js';
import { fromReportV2, type ReportV2Like } from './from-report-v2.js';
import type { HistoryCaseInput, HistoryRunInput } from './types.js';

/** A finished run, read for the history: its record, its cases, and each suite's baseline file. */
export interface RunForHistory {
  run: HistoryRunInput;
  cases: HistoryCaseInput[];
  /** `suite` → the baseline file the report names (read for its source run), or null. */
  baselines: Map<string, string | null>;
}

/**
 * Reads a run folder's report.json (or the file itself) of either schema: 1 (one entry per
 * sample, aggregated here) or 2 (one entry per case). Errors name the file and what to do.
 */
export async function readRunForHistory(path: string): Promise<RunForHistory> {
  const isDir = (await stat(path).catch(() => null))?.isDirectory() ?? false;
  const file = isDir ? join(path, 'report.json') : path;
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new FileError(
      file,
      missing
        ? 'no report.json here; pass a finished run folder (reports/<run-id>) or its report.json'
        : 'not JSON; pass a run folder under reports/ or its report.json',
      { cause: error },
    );
  }
  const report = value as {
    schema_version?: unknown;
    run?: { id?: unknown };
    cases?: unknown;
    suites?: unknown;
  };
  if (typeof report?.run?.id !== 'string' || !Array.isArray(report.cases) || !Array.isArray(report.suites))
    throw new FileError(file, 'not a driftcheck report; pass a run folder under reports/ or its report.json');
  const suites = report.suites as { suite: string; baseline: string | null }[];
  const baselines = new Map(suites.map((s) => [s.suite, s.baseline ?? null]));
  if (report.schema_version === 2) return { ...fromReportV2(report as ReportV2Like), baselines };
  if (report.schema_version === 1) return { ...fromReportV1(report as unknown as ReportV1Like), baselines };
  throw new FileError(
    file,
    `report schema ${String(report.schema_version)} is newer than this driftcheck reads; upgrade driftcheck`,
  );
}
