import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { READ_LIMITS, readBoundedLines } from '../../util/bounded-read.js';
import { compareText } from '../../util/compare-text.js';
import { RUN_ID_PATTERN } from '../../run/meta.js';
import type { ReportHead } from '../../stored/report/types.js';
import { readReportHead } from '../../stored/report/read.js';

/** Runs listed at most, newest first: each costs a read of its report's head. */
const INDEXED_RUNS = 500;

/** One run folder as the index lists it. */
export interface IndexedRun {
  /** The folder's name under the reports folder (its run id). */
  folder: string;
  /** report.json's head; null when the folder has none or it cannot be read (`problem` says). */
  head: ReportHead | null;
  problem: string | null;
  /** Which of the run's pages are there. */
  html: boolean;
  markdown: boolean;
}

/** A comparison folder (`compare-<first>-<last>`). */
export interface IndexedComparison {
  folder: string;
  html: boolean;
  /** What compare.json says of its reference and candidates, when its head could be read. */
  reference: string | null;
  candidates: { label: string; exit_code: number | null; passed: number | null; cases: number | null }[];
}

/** What the index of a reports folder shows. */
export interface RunsIndex {
  runs: IndexedRun[];
  /** Run folders past INDEXED_RUNS, not listed. */
  omitted: number;
  comparisons: IndexedComparison[];
  /** Other pages at the top of the folder (a trend page written there, `history … --out reports/trend.html`), with their titles. */
  pages: { file: string; title: string | null }[];
}

/** A run whose report head the caller holds (the run that has just written it): not read back. */
export interface KnownRun {
  folder: string;
  head: ReportHead;
}

/**
 * Reads a reports folder for its index: every run folder (newest first, each report's head
 * only, never its cases), every comparison folder, and the other pages at its top. A folder
 * that does not exist is an empty index. What cannot be read is listed with why, never fatal.
 * `known`'s head is taken as given: reading it back, and loading what checks a stored head,
 * was ~35 ms of the end of every run.
 */
export async function collectRunsIndex(reportDir: string, known?: KnownRun): Promise<RunsIndex> {
  const entries = await readdir(reportDir, { withFileTypes: true }).catch(() => []);
  const names = entries.map((e) => e.name).filter((n) => !n.startsWith('.'));
  const dirs = new Set(entries.filter((e) => e.isDirectory()).map((e) => e.name));
  const runFolders = names
    .filter((n) => dirs.has(n) && RUN_ID_PATTERN.test(n))
    .sort(compareText)
    .reverse();
  const runs: IndexedRun[] = [];
  for (const folder of runFolders.slice(0, INDEXED_RUNS))
    runs.push(await indexRun(join(reportDir, folder), folder, folder === known?.folder ? known.head : null));
  const comparisons: IndexedComparison[] = [];
  const compareFolders = names
    .filter((n) => dirs.has(n) && n.startsWith('compare-'))
    .sort(compareText)
    .reverse();
  for (const folder of compareFolders)
    comparisons.push(await indexComparison(join(reportDir, folder), folder));
  const pages: RunsIndex['pages'] = [];
  for (const file of names
    .filter((n) => !dirs.has(n) && n.endsWith('.html') && n !== 'index.html')
    .sort(compareText))
    pages.push({ file, title: await titleOf(join(reportDir, file)) });
  return { runs, omitted: Math.max(0, runFolders.length - INDEXED_RUNS), comparisons, pages };
}

/** A run folder's row: which of its pages are there, and its head, read from its report.json unless `known`. */
async function indexRun(dir: string, folder: string, known: ReportHead | null): Promise<IndexedRun> {
  const html = await isFile(join(dir, 'report.html'));
  const markdown = await isFile(join(dir, 'summary.md'));
  if (known) return { folder, head: known, problem: null, html, markdown };
  if (!(await isFile(join(dir, 'report.json'))))
    return {
      folder,
      head: null,
      problem: 'no report.json yet: running, or killed before it was written (driftcheck report renders it)',
      html,
      markdown,
    };
  try {
    return { folder, head: (await readReportHead(dir)).head, problem: null, html, markdown };
  } catch (error) {
    return { folder, head: null, problem: (error as Error).message, html, markdown };
  }
}

async function indexComparison(dir: string, folder: string): Promise<IndexedComparison> {
  const out: IndexedComparison = {
    folder,
    html: await isFile(join(dir, 'compare.html')),
    reference: null,
    candidates: [],
  };
  const head = await compareHead(join(dir, 'compare.json'));
  if (!head) return out;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  out.reference = text((head.reference as Record<string, unknown> | undefined)?.label);
  if (Array.isArray(head.candidates))
    out.candidates = head.candidates.flatMap((c: Record<string, unknown>) =>
      text(c?.label) === null
        ? []
        : [
            {
              label: text(c.label)!,
              exit_code: count(c.exit_code),
              passed: count(c.passed),
              cases: count(c.cases),
            },
          ],
    );
  return out;
}

/**
 * compare.json's head, before its rows (each case's row is a line of its own after
 * `"cases": [`): read up to there, never the rows. Null when it is missing or not that layout.
 */
async function compareHead(file: string): Promise<Record<string, unknown> | null> {
  if (!(await isFile(file))) return null;
  const lines: string[] = [];
  try {
    for await (const line of readBoundedLines(file, READ_LIMITS.report)) {
      if (line.startsWith('  "cases": [')) break;
      lines.push(line);
      if (lines.length > 100_000) return null;
    }
    const head = JSON.parse(`${lines.join('\n').replace(/,\s*$/, '')}\n}`) as unknown;
    return head !== null && typeof head === 'object' ? (head as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A page's `<title>`, read from its first 16 KB (where driftcheck's pages have it); null without one. */
async function titleOf(file: string): Promise<string | null> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(16 * 1024), position: 0 });
    const m = /<title>([^<]{1,200})<\/title>/i.exec(buffer.subarray(0, bytesRead).toString('utf8'));
    return m ? decodeEntities(m[1]!.trim()) : null;
  } finally {
    await handle.close();
  }
}

/** The few entities escapeHtml writes, read back (the index escapes the title again). */
function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}
