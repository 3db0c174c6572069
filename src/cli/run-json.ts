import { relative } from 'node:path';
import type { ReportHead } from '../stored/report/types.js';

/**
 * What `run --json` prints on stdout, one JSON document (schemas/run-output.schema.json):
 * report.json's `run` and `summary` objects as written, the run folder and the report files,
 * and the baselines `--update-baselines` wrote, each path relative to the working folder.
 */
interface RunOutput {
  run: ReportHead['run'];
  summary: ReportHead['summary'];
  run_dir: string;
  files: string[];
  baselines_written: string[];
}

export function runOutput(
  report: ReportHead,
  where: { cwd: string; runDir: string; files: readonly string[]; baselinesWritten: readonly string[] },
): RunOutput {
  const shown = (file: string) => relative(where.cwd, file) || '.';
  return {
    run: report.run,
    summary: report.summary,
    run_dir: shown(where.runDir),
    files: where.files.map(shown),
    baselines_written: where.baselinesWritten.map(shown),
  };
}
