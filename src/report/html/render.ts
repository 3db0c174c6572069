import type { Report } from '../../types.js';
import { type HtmlBaselines, LARGE_REPORT_CASES, pageCases } from './data.js';
import { cspHash, embedJson, escapeHtml } from './escape.js';
import { renderBar, renderRunInfo } from './header.js';
import { clientScript } from './script.js';
import { STYLE } from './style.js';
import { groupDigits } from '../numbers.js';

export interface HtmlOptions {
  /**
   * Baseline answers (and usage) by `suite/case`, for what the report alone cannot show:
   * the baseline text of an errored case, and tokens and cost against the baseline.
   */
  baselines?: HtmlBaselines;
  /** Page title; defaults to "driftcheck <run id>". */
  title?: string;
}

/**
 * `report.html`: one self-contained page (no network, no external file) with the verdict,
 * counts, services and models, and every case filterable, searchable and diffable. Model
 * output is data: the page escapes it, embeds it as inert JSON, and its CSP allows only
 * the page's own script and style, by hash.
 */
export function renderHtml(report: Report, options: HtmlOptions = {}): string {
  return [...renderHtmlChunks(report, options)].join('');
}

/**
 * The same page in pieces, the embedded data one case at a time, so that a report of
 * 100,000 cases is written without ever holding the page as one string. (The data block is
 * inert JSON, not script: the CSP hashes only the page's own script and style.)
 */
export function* renderHtmlChunks(report: Report, options: HtmlOptions = {}): Generator<string> {
  const title = options.title ?? `driftcheck ${report.run.id}`;
  const baselines = options.baselines ?? {};
  const page = pageCases(report, baselines);
  const script = clientScript();
  const csp = [
    "default-src 'none'",
    `script-src ${cspHash(script)}`,
    `style-src ${cspHash(STYLE)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    // The script only ever uses textContent; with this, any string-to-markup sink throws.
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join('; ');
  const large =
    page.text_limit === null
      ? ''
      : `<p class="notice">This report has ${groupDigits(report.cases.length)} cases (more than ${groupDigits(LARGE_REPORT_CASES)}): each prompt and answer is shortened to ${groupDigits(page.text_limit)} characters here. report.json holds them whole.</p>`;
  yield `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
${renderBar(report, title)}
<main>
${renderRunInfo(report, baselines)}
${large}
<noscript><p class="notice">The case list needs JavaScript. The summary above and report.json hold the results.</p></noscript>
<p id="count" aria-live="polite"></p>
<div id="cases"></div>
<button type="button" id="more" hidden></button>
</main>
<script type="application/json" id="report-data">`;
  // {"cases":[ …one case at a time… ], …rest}: the same JSON embedJson(data) would give.
  yield '{"cases":[';
  let first = true;
  for (const c of page.cases()) {
    yield `${first ? '' : ','}${embedJson(c)}`;
    first = false;
  }
  yield `],"text_limit":${embedJson(page.text_limit)}}`;
  yield `</script>
<script>${script}</script>
</body>
</html>
`;
}
