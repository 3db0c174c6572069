import { embeddable, escapeHtml, pageHead } from '../../report/html/escape.js';
import {
  clipText,
  LARGE_REPORT_TEXT_CHARS,
  type PageTranscript,
  pageTextLimit,
  transcriptOf,
} from '../../report/html/data.js';
import type { Trajectory } from '../../record/fields/trajectory.js';
import { STYLE } from '../../report/html/style.js';
import {
  CHANGE_ROW_LABELS,
  changeRowValues,
  costText,
  errorsText,
  anyStreamed,
  latencyText,
  notRunText,
  passRateText,
  servedText,
  toolsText,
  ttftText,
} from '../format.js';
import type { ComparisonHead } from '../compare.js';
import type { CandidateSummary, CaseRow, Comparison } from '../types.js';
import { pickableChart } from './chart.js';
import { compareScript } from './script.js';
import { COMPARE_STYLE } from './style.js';

/**
 * compare.html: one self-contained page (the CSP, escaping and page head of report.html):
 * the candidates' cards, the cost-versus-pass-rate chart, and the matrix of cases ×
 * candidates, each case opening the candidates' answers side by side with word diffs
 * against the reference. Model output is data: escaped here, embedded as inert JSON for
 * the script, which writes it with textContent only. Renders only.
 */
export function renderCompareHtml(comparison: Comparison, options: { title?: string } = {}): string {
  const { cases, ...head } = comparison;
  const page = compareHtmlParts(head, cases.length, options);
  return `${page.before}${cases.map(page.row).join(',')}${page.after}`;
}

/**
 * compare.html around its rows, for a comparison whose rows are made one at a time: the
 * page up to the first row's data, one row's data (answers shortened on a large page),
 * and the rest; rows are joined by a comma.
 */
export function compareHtmlParts(
  comparison: ComparisonHead,
  rows: number,
  options: { title?: string } = {},
): { before: string; row: (row: CaseRow) => string; after: string } {
  const { candidates, reference } = comparison;
  const title = options.title ?? `driftcheck compare: ${candidates.map((c) => c.label).join(' · ')}`;
  const script = compareScript();
  const cells = rows * Math.max(1, candidates.length);
  const limit = pageTextLimit(cells);
  const against = reference.kind === 'baseline' ? 'the current baseline' : `run ${reference.label}`;
  const regressed = candidates.reduce((n, c) => n + c.changes.regressed, 0);
  const [word, tone] = regressed > 0 ? ['REGRESSED', 'bad'] : ['NO REGRESSION', 'ok'];
  const skipped = comparison.skipped_suites
    .map(
      (s) =>
        `<li>suite <code>${escapeHtml(s.suite)}</code> skipped under ${s.candidates.length === candidates.length ? 'every candidate' : escapeHtml(s.candidates.join(', '))}: ${escapeHtml(s.reason)}</li>`,
    )
    .join('');
  const unserved = candidates
    .flatMap((c) =>
      c.unserved.map(
        (u) =>
          `<li class="bad">provider ${escapeHtml(c.provider ?? c.label)} could not serve ${escapeHtml(u.model)} (suite ${escapeHtml(u.suite)}, ${u.cases} of ${u.total} cases): ${escapeHtml(u.message)}</li>`,
      ),
    )
    .join('');
  const notRun = comparison.candidates_not_run
    .map((c) => `<li class="bad">${escapeHtml(notRunText(c))}</li>`)
    .join('');
  const notes = skipped || unserved || notRun ? `<ul class="notes">${notRun}${unserved}${skipped}</ul>` : '';
  const streamed = anyStreamed(candidates);
  const large =
    limit !== LARGE_REPORT_TEXT_CHARS
      ? ''
      : `<p class="notice">This comparison is large: each answer is shortened to ${limit} characters here. compare.json and each run's report.json hold them whole.</p>`;
  const before = `${pageHead(title, script, `${STYLE}${COMPARE_STYLE}`)}<header class="bar">
<div class="verdict ${tone}"><span class="word">${word}</span><span class="title">${escapeHtml(title)}</span><span class="why">${candidates.length} candidate(s) against ${escapeHtml(against)} · ${rows} cases</span></div>
<div class="views" role="group" aria-label="show">
<button type="button" class="view" data-view="all" aria-pressed="true">all <b></b></button>
<button type="button" class="view bad" data-view="regressed" aria-pressed="false" title="cases regressed under any candidate">regressed <b></b></button>
<button type="button" class="view warn" data-view="changed" aria-pressed="false" title="cases any candidate changed">changed <b></b></button>
<button type="button" class="view bad" data-view="failing" aria-pressed="false" title="cases failing or erroring under any candidate">failing or erroring <b></b></button>
<button type="button" class="view muted" data-view="missing" aria-pressed="false" title="cases some candidate did not run">not run, missing or skipped <b></b></button>
</div>
<div class="tools"><input id="q" type="search" placeholder="search suite/case (press /)" aria-label="search cases" disabled></div>
</header>
<main>
${large}
<section class="cards" aria-label="candidates">${candidates.map((c, i) => card(c, i, streamed)).join('')}</section>
${notes}
<section class="chart-box">${pickableChart(candidates)}</section>
<noscript><p class="notice">The case matrix needs JavaScript. The cards above and compare.json hold the results.</p></noscript>
<section id="detail" hidden aria-live="polite"></section>
<p id="count" aria-live="polite"></p>
<div class="scroll matrix"><table><thead><tr><th>case</th><th>${escapeHtml(reference.label)}</th>${candidates.map((c) => `<th>${escapeHtml(c.label)}</th>`).join('')}</tr></thead><tbody id="rows"></tbody></table></div>
<button type="button" id="more" hidden></button>
</main>
<script type="application/json" id="compare-data">${embeddable(`{"schema_version":${JSON.stringify(comparison.schema_version)},"reference":${JSON.stringify(reference)},"candidates":${JSON.stringify(candidates)},"cases":[`)}`;
  const after = `${embeddable(`],"skipped_suites":${JSON.stringify(comparison.skipped_suites)},"candidates_not_run":${JSON.stringify(comparison.candidates_not_run)}}`)}</script>
<script>${script}</script>
</body>
</html>
`;
  return { before, row: pageRowOf(rows, candidates.length), after };
}

/** One row's data as compare.html embeds it, for a page of `rows` rows and `candidates` candidates. */
export function pageRowOf(rows: number, candidates: number): (row: CaseRow) => string {
  const limit = pageTextLimit(rows * Math.max(1, candidates));
  return (row) => embeddable(JSON.stringify(pageRow(row, limit)));
}

/**
 * A row as the script reads it: answers shortened to the page's limit, and a conversation's
 * trajectories as report.html's transcripts (`transcript` in place of `trajectory`), their
 * calls and texts bounded as report.html bounds them.
 */
function pageRow(row: CaseRow, limit: number): CaseRow {
  const long = (text: string | null) => text !== null && text.length > limit;
  const conversation = row.reference.trajectory !== undefined || row.cells.some((c) => c.trajectory);
  if (!conversation && !long(row.reference.content) && !row.cells.some((cell) => long(cell.content)))
    return row;
  const clip = (text: string | null) => (text === null ? null : clipText(text, limit));
  return {
    ...row,
    reference: { ...withTranscript(row.reference, limit), content: clip(row.reference.content) },
    cells: row.cells.map((cell) => ({ ...withTranscript(cell, limit), content: clip(cell.content) })),
  };
}

/** A side with its trajectory as the page draws it (transcriptOf), or as it is without one. */
function withTranscript<T extends { trajectory?: Trajectory }>(
  side: T,
  limit: number,
): Omit<T, 'trajectory'> & { transcript?: PageTranscript } {
  const { trajectory, ...rest } = side;
  const transcript = transcriptOf(trajectory, undefined, null, limit);
  return transcript ? { ...rest, transcript } : rest;
}

/**
 * One candidate's card: its figures, as compareRuns computed them; its time to first token
 * beside its cost and pass rate when some candidate streamed.
 */
function card(c: CandidateSummary, index: number, streamed: boolean): string {
  const facts: [string, string][] = [
    ['pass rate', passRateText(c)],
    ...CHANGE_ROW_LABELS.map((label, row): [string, string] => [label, changeRowValues(c)[row]!]),
    ['tool calls', toolsText(c)],
    ['errors', errorsText(c)],
    ['tokens', `${c.tokens.total} (${c.tokens.prompt} prompt + ${c.tokens.completion} completion)`],
    ['cost per 1,000 cases', costText(c)],
    ['latency p50 / p95', latencyText(c)],
    ...(streamed ? [['time to first token p50 / p95', ttftText(c)] as [string, string]] : []),
    ['providers', servedText(c.providers)],
    ['models', servedText(c.models)],
    ['run', `${c.run_id} · ${c.run_status} · exit ${c.exit_code}`],
  ];
  const tone = c.changes.regressed > 0 || c.exit_code !== 0 ? 'worse' : 'clean';
  const verdict = c.verdict.could_not_serve
    ? 'unserved'
    : c.verdict.worse
      ? 'worse'
      : c.verdict.better
        ? 'better'
        : 'same';
  return `<article class="card ${tone}" data-candidate="${index}"><h2>${c.pareto ? '<span class="star" title="on the cost/pass-rate frontier">★</span> ' : ''}${escapeHtml(c.label)}</h2><p class="verdict ${verdict}" data-verdict="${verdict}">${escapeHtml(c.verdict.line)}</p><dl class="meta">${facts.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl></article>`;
}
