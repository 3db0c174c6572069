import { mkdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../util/atomic.js';
import { SpooledFile } from '../util/spool.js';
import type { ComparisonHead, ComparisonRows, ComparisonView } from './compare.js';
import { compareHtmlParts, pageRowOf } from './html/render.js';
import { renderCompareMarkdown } from './markdown.js';

/**
 * Writes compare.json, compare.md and compare.html into `dir` (each whole or not at all)
 * as the comparison's rows are made: each row goes to compare.json and to the page's data
 * as it comes (spooled to disk, never held), and the head every file opens with is
 * written last, once the rows have decided it. compare.json is the Comparison itself
 * (schemas/compare.schema.json), laid out as `JSON.stringify(comparison, null, 2)` lays
 * it out except that each case row is one line (a script reads it a line at a time; indented,
 * two candidates' 100,000 rows took 111 MB, on a line each 62 MB). Returns the files' paths
 * and what the console prints from.
 */
export async function writeComparison(
  dir: string,
  comparison: ComparisonRows,
): Promise<{ files: string[]; view: ComparisonView }> {
  await mkdir(dir, { recursive: true });
  const json = new SpooledFile(dir, 'compare.json');
  const html = new SpooledFile(dir, 'compare.html');
  try {
    const pageRow = pageRowOf(comparison.size, comparison.candidateCount);
    let rows = 0;
    for await (const row of comparison.rows()) {
      await json.write(`${rows === 0 ? '' : ','}\n    ${JSON.stringify(row)}`);
      await html.write(`${rows === 0 ? '' : ','}${pageRow(row)}`);
      rows++;
    }
    const view = comparison.view();
    const head = runsFrom(dir, view.head);
    const [before, after] = jsonAround(head, rows);
    const page = compareHtmlParts(head, rows);
    const files = [await json.finish(before, after)];
    const md = join(dir, 'compare.md');
    await writeFileAtomic(md, renderCompareMarkdown({ ...view, head }));
    files.push(md, await html.finish(page.before, page.after));
    return { files, view };
  } finally {
    await json.discard();
    await html.discard();
  }
}

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** compare.json before its rows and after them, as `JSON.stringify(comparison, null, 2)` lays them out. */
function jsonAround(head: ComparisonHead, rows: number): [string, string] {
  const field = (key: string, value: unknown) =>
    `  ${JSON.stringify(key)}: ${pretty(value).replace(/\n/g, '\n  ')}`;
  const before = `{\n${field('schema_version', head.schema_version)},\n${field('reference', head.reference)},\n${field('candidates', head.candidates)},\n  "cases": [`;
  const after = `${rows === 0 ? '' : '\n  '}],\n${field('skipped_suites', head.skipped_suites)},\n${field('candidates_not_run', head.candidates_not_run)}\n}\n`;
  return [before, after];
}

/**
 * The head with its run folders relative to where it is written (`../<run id>`), so the
 * files stay right when the folder moves with its runs, and the page links to each run's
 * report.html.
 */
function runsFrom(dir: string, head: ComparisonHead): ComparisonHead {
  const from = (runDir: string | null) =>
    runDir === null ? null : relative(dir, runDir).split(sep).join('/');
  return {
    ...head,
    reference: { ...head.reference, dir: from(head.reference.dir) },
    candidates: head.candidates.map((c) => ({ ...c, dir: from(c.dir) })),
  };
}

/** Where a comparison's files go by default: `compare-<first run>-<last run>` beside the runs. */
export function compareFolder(parent: string, runIds: readonly string[]): string {
  const name =
    runIds.length <= 1
      ? `compare-${runIds[0] ?? 'none'}`
      : `compare-${runIds[0]}-${runIds[runIds.length - 1]}`;
  return join(parent, name);
}
