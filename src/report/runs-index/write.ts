import { basename, dirname, join, resolve } from 'node:path';
import { writeFileAtomic } from '../../util/atomic.js';
import { collectRunsIndex, type KnownRun, type RunsIndex } from './collect.js';
import { renderRunsIndex } from './render.js';

/** The index page of a reports folder, as `driftcheck open` serves it and `index.html` holds it. */
export async function runsIndexPage(
  reportDir: string,
  known?: KnownRun,
): Promise<{ html: string; index: RunsIndex }> {
  const index = await collectRunsIndex(reportDir, known);
  const now = new Date();
  const project = basename(dirname(resolve(reportDir)));
  return { html: renderRunsIndex(index, { title: `driftcheck runs — ${project}`, now }), index };
}

/**
 * Writes `<reportDir>/index.html` (atomically: two runs ending at once leave one whole page):
 * after each run (which gives its own head, `known`), and by `driftcheck open`, for a CI
 * artifact or GitHub Pages. Returns its path.
 */
export async function writeRunsIndex(reportDir: string, known?: KnownRun): Promise<string> {
  const file = join(reportDir, 'index.html');
  await writeFileAtomic(file, (await runsIndexPage(reportDir, known)).html);
  return file;
}
