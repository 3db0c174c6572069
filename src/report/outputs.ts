import { join } from 'node:path';
import type { Baseline, Report } from '../types.js';
import { writeChunksAtomic } from '../util/atomic.js';
import type { HtmlBaselines } from './html/data.js';
import { writeJsonReport } from './write.js';

/** What renderers may use besides the report: the baselines the run was compared with. */
export interface RenderContext {
  baselines?: ReadonlyMap<string, { baseline: Baseline | null }>;
}

/** Reporters that write a file into the run folder; `console` prints, `json` is always written. */
const FILE_REPORTERS = {
  html: {
    file: 'report.html',
    // In pieces: a 100,000-case page is never held as one string.
    render: async (report: Report, context: RenderContext): Promise<Iterable<string>> =>
      (await import('./html/index.js')).renderHtmlChunks(report, { baselines: htmlBaselines(context) }),
  },
  junit: {
    file: 'junit.xml',
    render: async (report: Report): Promise<Iterable<string>> =>
      (await import('./junit.js')).renderJunitChunks(report),
  },
  markdown: {
    file: 'summary.md',
    render: async (report: Report): Promise<Iterable<string>> => [
      (await import('./markdown.js')).renderMarkdown(report),
    ],
  },
} as const;

export type ReporterName = 'console' | 'json' | keyof typeof FILE_REPORTERS;
export const REPORTER_NAMES: readonly ReporterName[] = ['console', 'json', 'html', 'junit', 'markdown'];

/**
 * Writes report.json and every selected file reporter into the run folder, each
 * atomically and through `redact`, the last guard against a key reaching disk.
 * Returns the files written, report.json first.
 */
export async function writeReportFiles(
  runDir: string,
  report: Report,
  reporters: ReadonlySet<string>,
  redact: (text: string) => string,
  context: RenderContext = {},
): Promise<string[]> {
  const written = [await writeJsonReport(runDir, report, redact)];
  for (const [name, reporter] of Object.entries(FILE_REPORTERS)) {
    if (!reporters.has(name)) continue;
    const file = join(runDir, reporter.file);
    const pieces = await reporter.render(report, context);
    await writeChunksAtomic(file, function* () {
      for (const piece of pieces) yield redact(piece);
    });
    written.push(file);
  }
  return written;
}

/** The baseline answer and usage of a case, for the HTML report's diffs and totals (read in place, not copied). */
function htmlBaselines(context: RenderContext): HtmlBaselines {
  const baselines = context.baselines;
  return (suite, caseId) => {
    const cases = baselines?.get(suite)?.baseline?.cases;
    return cases && Object.hasOwn(cases, caseId) ? cases[caseId] : undefined;
  };
}
