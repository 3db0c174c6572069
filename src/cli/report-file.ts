import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FileError } from '../errors.js';
import type { Report } from '../types.js';

/** Reads a report from a run folder or a report.json path, with an actionable error. */
export async function readReportAt(path: string): Promise<Report> {
  const isDir = (await stat(path).catch(() => null))?.isDirectory() ?? false;
  const file = isDir ? join(path, 'report.json') : path;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new FileError(
      file,
      isDir
        ? 'no report.json in this run folder; if the run was killed, finish it first with `driftcheck run --resume FOLDER`'
        : 'cannot read this report',
      { cause: error },
    );
  }
  try {
    const report = JSON.parse(text) as Report;
    if (report?.schema_version !== 1 || !Array.isArray(report.cases))
      throw new Error('not a driftcheck report');
    return report;
  } catch (error) {
    throw new FileError(
      file,
      `not a driftcheck report (${(error as Error).message}); pass a run folder under reports/ or its report.json`,
      { cause: error },
    );
  }
}
