import { mkdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../util/atomic.js';
import { renderCompareHtml } from './html/render.js';
import { renderCompareMarkdown } from './markdown.js';
import type { FoldedRun } from './folded-run.js';
import type { Comparison } from './types.js';

/**
 * The views of a comparison that are files, by name: each only renders the Comparison
 * compareRuns made. compare.json is the Comparison itself (schemas/compare.schema.json).
 */
const COMPARE_FILES = {
  'compare.json': (c: Comparison) => `${JSON.stringify(c, null, 2)}\n`,
  'compare.md': renderCompareMarkdown,
  'compare.html': (c: Comparison) => renderCompareHtml(c),
} as const;

/** Writes compare.json, compare.md and compare.html into `dir` (each whole or not at all); returns their paths. */
export async function writeComparison(dir: string, comparison: Comparison): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  const written = runsFrom(dir, comparison);
  for (const [name, render] of Object.entries(COMPARE_FILES)) {
    const file = join(dir, name);
    await writeFileAtomic(file, render(written));
    files.push(file);
  }
  return files;
}

/**
 * The comparison with its run folders relative to where it is written (`../<run id>`), so
 * the files stay right when the folder moves with its runs, and the page links to each
 * run's report.html.
 */
function runsFrom(dir: string, comparison: Comparison): Comparison {
  const from = (runDir: string | null) =>
    runDir === null ? null : relative(dir, runDir).split(sep).join('/');
  return {
    ...comparison,
    reference: { ...comparison.reference, dir: from(comparison.reference.dir) },
    candidates: comparison.candidates.map((c) => ({ ...c, dir: from(c.dir) })),
  };
}

/** Where a comparison's files go by default: `compare-<first run>-<last run>` beside the runs. */
export function compareFolder(parent: string, runs: readonly FoldedRun[]): string {
  const ids = runs.map((r) => r.head.run.id);
  const name = ids.length <= 1 ? `compare-${ids[0] ?? 'none'}` : `compare-${ids[0]}-${ids[ids.length - 1]}`;
  return join(parent, name);
}
