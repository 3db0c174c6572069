import type { Baseline } from '../../stored/baseline/types.js';
import type { Report, ReportHead } from '../../stored/report/types.js';
import { SpooledFile } from '../../util/spool.js';
import type { Reporter } from '../../fold/reporter.js';
import { clipText, LARGE_REPORT_CASES, LARGE_REPORT_TEXT_CHARS, pageCase, pageTextLimit } from './data.js';
import { MAX_VIEW_TEXT_CHARS } from '../../util/shorten.js';
import { embedJson, pageHead } from './escape.js';
import { PassRateRows, renderBar, renderRunInfo } from './header.js';
import { publishReport } from '../../fold/published.js';
import type { Totals } from '../../fold/totals.js';
import { clientScript } from './script.js';
import { STYLE } from './style.js';
import { groupDigits } from '../../util/numbers.js';

export interface HtmlOptions {
  /** Page title; defaults to "driftcheck <run id>". */
  title?: string;
}

/**
 * `report.html`: one self-contained page (no network, no external file) with the verdict,
 * counts, services and models, and every case filterable, searchable and diffable. Model
 * output is data: the page escapes it, embeds it as inert JSON, and its CSP allows only
 * the page's own script and style, by hash. Cases are embedded as their suites are folded
 * (through a spool file), each with the fold's rank, the head once the run's totals are
 * known; the page sorts them by that rank itself.
 */
export function htmlReporter(dir: string, options: HtmlOptions = {}): Reporter {
  const file = new SpooledFile(dir, 'report.html');
  let written = 0;
  let limit = MAX_VIEW_TEXT_CHARS;
  const rates = new PassRateRows();
  return {
    // Not async: the spool answers a promise only when it goes to disk (see SpooledFile.write).
    onCase(c) {
      // The first case says how large the report will be.
      if (written === 0) limit = pageTextLimit(c.planned);
      rates.add(c);
      return file.write(
        `${written++ ? ',' : ''}${embedJson(pageCase(c.entry, c.review, c.base, limit, c.suite.system))}`,
      );
    },
    async onEnd(head, totals) {
      const title = options.title ?? `driftcheck ${head.run.id}`;
      const [top, bottom] = page(head, totals, title, rates, limit);
      return [await file.finish(top, bottom)];
    },
    onAbort: () => file.discard(),
  };
}

/** The page around its case data: everything before the cases' JSON, and everything after. */
function page(
  head: ReportHead,
  totals: Totals,
  title: string,
  rates: PassRateRows,
  limit: number,
): [string, string] {
  const brief = totals.brief;
  const script = clientScript();
  const large =
    limit !== LARGE_REPORT_TEXT_CHARS
      ? ''
      : `<p class="notice">This report has ${groupDigits(head.summary.cases)} cases (more than ${groupDigits(LARGE_REPORT_CASES)}): each prompt and answer is shortened to ${groupDigits(limit)} characters here. report.json holds them whole.</p>`;
  // Where the rest of a brief case is: a reviewer opening one must not think it lost.
  const briefNote =
    brief === 0
      ? ''
      : `<p class="notice" id="brief-note">${groupDigits(brief)} of ${groupDigits(head.summary.cases)} cases passed every sample with nothing changed: each is listed here as a row of counts (samples, tokens, latency). Their prompts, answers and checks are in report.json beside this page, and every sample in results.jsonl.</p>`;
  const systems = Object.fromEntries(
    head.suites.flatMap((s) => (s.system === undefined ? [] : [[s.suite, clipText(s.system, limit)]])),
  );
  const top = `${pageHead(title, script, STYLE)}${renderBar(head, title, totals)}
<main>
${renderRunInfo(head, totals, rates)}
${large}
${briefNote}
<noscript><p class="notice">The case list needs JavaScript. The summary above and report.json hold the results.</p></noscript>
<p id="count" aria-live="polite"></p>
<div id="cases"></div>
<button type="button" id="more" hidden></button>
</main>
<script type="application/json" id="report-data">{"cases":[`;
  const bottom = `],"text_limit":${embedJson(limit)},"systems":${embedJson(systems)}}</script>
<script>${script}</script>
</body>
</html>
`;
  return [top, bottom];
}

/** The whole page as one string, from a report held in memory: the same pieces the reporter writes. */
export function renderHtml(
  report: Report,
  options: HtmlOptions & { baselines?: ReadonlyMap<string, Baseline | null> } = {},
): string {
  const published = publishReport(report);
  const limit = pageTextLimit(report.cases.length);
  const rates = new PassRateRows();
  const systems = new Map(report.suites.map((s) => [s.suite, s.system]));
  const embedded = published.cases.map((folded) => {
    const c = folded.entry;
    rates.add(folded);
    const cases = options.baselines?.get(c.suite)?.cases;
    const base = cases && Object.hasOwn(cases, c.case) ? cases[c.case] : undefined;
    return embedJson(pageCase(c, folded.review, base, limit, systems.get(c.suite)));
  });
  const title = options.title ?? `driftcheck ${report.run.id}`;
  const [top, bottom] = page(published.head, published.totals, title, rates, limit);
  return `${top}${embedded.join(',')}${bottom}`;
}
