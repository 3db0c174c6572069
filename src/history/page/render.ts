import { embedJson, escapeHtml, pageHead } from '../../report/html/escape.js';
import type { TrendSource } from '../source.js';
import type { History } from '../../stored/history/types.js';
import { trendPageData } from './data.js';
import { trendScript } from './script.js';
import { TREND_STYLE } from './style.js';

/** Where a night's report.html sits, relative to the trend page. */
const DEFAULT_REPORT_BASE = 'reports';

export interface TrendPageOptions {
  /** Link template: `{run}`, `{suite}`, `{case}` are filled in (default `<base>/{run}/report.html#{suite}/{case}`). */
  link?: string;
  /** Used in the default link template. */
  reportBase?: string;
  title?: string;
}

/**
 * The trend page: one self-contained file (no network, no external file, the same CSP as
 * report.html), so it works from file:// and on GitHub Pages. Plain SVG and one canvas, no
 * chart library: the charts are a few line series with marks, which take less script than
 * any library's setup, and the heat map needs a canvas either way.
 */
export function renderTrendPage(history: History | TrendSource, options: TrendPageOptions = {}): string {
  const base = (options.reportBase ?? DEFAULT_REPORT_BASE).replace(/\/+$/, '');
  const link = options.link ?? `${base}/{run}/report.html#{suite}/{case}`;
  const data = trendPageData(history, link);
  const title = options.title ?? 'driftcheck history';
  const script = trendScript();
  const first = data.nights[0]?.label ?? '–';
  const last = data.nights[data.nights.length - 1]?.label ?? '–';
  const problems =
    data.problems > 0
      ? `<p class="notice">${data.problems} history line(s) were corrupt or foreign and were skipped; <code>driftcheck history</code> lists them.</p>`
      : '';
  return `${pageHead(title, script, TREND_STYLE)}<header>
<h1>${escapeHtml(title)}</h1>
<p class="muted">${data.nights.length} nights (${escapeHtml(first)} → ${escapeHtml(last)}) · ${data.cases.length} cases · ${data.suites.length} suites</p>
<div class="tools">
<select id="suite" aria-label="suite"><option value="">all suites</option></select>
<input id="q" type="search" placeholder="search suite/case" aria-label="search cases">
<button type="button" class="view" data-view="all" aria-pressed="true">all <span class="n"></span></button>
<button type="button" class="view" data-view="failing" aria-pressed="false">failing now <span class="n"></span></button>
<button type="button" class="view" data-view="trending" aria-pressed="false">trending down <span class="n"></span></button>
<button type="button" class="view" data-view="flaky" aria-pressed="false">flaky <span class="n"></span></button>
</div>
</header>
<main>
${problems}
<noscript><p class="notice">The trend page needs JavaScript; the history files are plain JSON Lines.</p></noscript>
<section id="tonight" aria-label="tonight"></section>
<section id="detail" hidden></section>
<div id="suites"></div>
<h2>Cases × nights</h2>
<p id="heat-note" class="muted"></p>
<div class="heat scroll"><canvas id="heat" width="1" height="1"></canvas></div>
<p id="heat-readout" class="readout" aria-live="polite"></p>
<p id="count" aria-live="polite"></p>
<div class="table scroll"><table><thead><tr><th>case</th><th>now</th><th>failing since</th><th>flips</th><th title="the slow-drift detector (CUSUM) on the nights since the suite's last baseline">trend (slow drift)</th></tr></thead><tbody id="rows"></tbody></table></div>
<button type="button" id="more" hidden></button>
<h2>Flaky cases (between pass and fail more than once; most flips first)</h2>
<p id="flaky-none" class="muted" hidden></p>
<div class="table scroll" id="flaky-table"><table><thead><tr><th>case</th><th>flips</th><th>now</th></tr></thead><tbody id="flaky"></tbody></table></div>
</main>
<script type="application/json" id="trend-data">${embedJson(data)}</script>
<script>${script}</script>
</body>
</html>
`;
}
