import { candidateLabel } from '../../fold/provenance.js';
import { escapeHtml as h, pageHead } from '../html/escape.js';
import { runVerdict } from '../html/header.js';
import { countOf, groupDigits } from '../../util/numbers.js';
import type { IndexedComparison, IndexedRun, RunsIndex } from './collect.js';
import { INDEX_STYLE } from './style.js';

/**
 * The index of a reports folder as one self-contained page (the same CSP as report.html: no
 * network, no script at all): every run newest first with its verdict, date, counts and
 * suites, linking to its report.html; the comparisons' compare.html; and the other pages
 * there (a trend page). Every link is relative, so the page works from the server of
 * `driftcheck open`, from file:// and from a CI artifact or GitHub Pages alike.
 */
export function renderRunsIndex(index: RunsIndex, options: { title: string; now: Date }): string {
  const runs = index.runs.length
    ? `<ol class="runs">${index.runs.map((r, i) => runItem(r, i === 0)).join('\n')}</ol>${
        index.omitted ? `<p class="muted">… and ${countOf(index.omitted, 'older run')} not listed.</p>` : ''
      }`
    : '<p class="empty">No runs yet in this folder: <code>driftcheck run --sim</code> writes one.</p>';
  const comparisons = index.comparisons.length
    ? `<h2>Comparisons</h2><ol class="comparisons">${index.comparisons.map(comparisonItem).join('\n')}</ol>`
    : '';
  const pages = index.pages.length
    ? `<h2>Pages</h2><ul class="pages">${index.pages.map((p) => `<li class="item"><span class="verdict">page</span><span class="run"><a href="${href(p.file)}">${h(p.file)}</a>${p.title ? `<span class="tags">${h(p.title)}</span>` : ''}</span></li>`).join('\n')}</ul>`
    : '';
  const when = utc(options.now.toISOString());
  return `${pageHead(options.title, '', INDEX_STYLE)}<header class="bar"><h1>${h(options.title)}</h1><p class="muted">${countOf(index.runs.length + index.omitted, 'run')}${index.comparisons.length ? ` · ${countOf(index.comparisons.length, 'comparison')}` : ''} · written ${h(when)}</p></header>
<main>
<h2>Runs</h2>
${runs}
${comparisons}
${pages}
</main>
</body>
</html>
`;
}

function runItem(run: IndexedRun, newest: boolean): string {
  const head = run.head;
  const report = run.html ? `<a href="${href(run.folder, 'report.html')}">report.html</a>` : '';
  const links = [
    report,
    run.markdown ? `<a href="${href(run.folder, 'summary.md')}">summary.md</a>` : '',
    head ? `<a href="${href(run.folder, 'report.json')}">report.json</a>` : '',
  ]
    .filter(Boolean)
    .join('');
  if (!head)
    return `<li class="item" data-run="${h(run.folder)}"><span class="verdict warn">NO REPORT</span><span class="run"><span class="id">${h(run.folder)}</span></span><span class="problem">${h(run.problem ?? '')}</span><span class="links">${links}</span></li>`;
  const r = head.run;
  const s = head.summary;
  const v = runVerdict(r.exit_code, r);
  const counts = [
    `<span class="n">${countOf(s.cases, 'case')}</span>`,
    `<span class="n">${groupDigits(s.passed)} passed</span>`,
    s.failed ? `<span class="n bad">${groupDigits(s.failed)} failed</span>` : '',
    s.errored ? `<span class="n bad">${groupDigits(s.errored)} errored</span>` : '',
    s.regressed ? `<span class="n bad">${groupDigits(s.regressed)} regressed</span>` : '',
    s.not_run ? `<span class="n warn">${groupDigits(s.not_run)} not run</span>` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const candidate = candidateLabel(r);
  const tags = [
    newest ? 'latest' : '',
    r.sim ? 'simulator' : '',
    candidate ? `candidate ${h(candidate)}` : '',
    r.shard ? `shard ${r.shard.index}/${r.shard.total}` : '',
    r.provenance?.recheck_of ? `recheck of ${h(r.provenance.recheck_of)}` : '',
    r.provenance && !r.provenance.complete && !r.shard ? 'not every case' : '',
    r.bail ? `bailed at --bail ${r.bail.limit}` : '',
    r.status !== 'completed' ? h(r.status) : '',
  ].filter(Boolean);
  const suites = head.suites.map((x) => h(x.suite)).join(', ');
  const id = run.html
    ? `<a class="id" href="${href(run.folder, 'report.html')}">${h(r.id)}</a>`
    : `<span class="id">${h(r.id)}</span>`;
  return `<li class="item" data-run="${h(run.folder)}"><span class="verdict ${v.tone}" title="${h(v.text)} · exit ${r.exit_code}">${v.word}</span><span class="run">${id}<time datetime="${h(r.started_at)}">${h(utc(r.started_at))}</time>${tags.length ? `<span class="tags">${tags.join(' · ')}</span>` : ''}</span><span class="counts">${counts}</span><span class="suites">${head.suites.length ? `${head.suites.length === 1 ? 'suite' : 'suites'} ${suites}` : 'no suite'}</span><span class="links">${links}</span></li>`;
}

function comparisonItem(c: IndexedComparison): string {
  const worst = c.candidates.map((x) => x.exit_code ?? 0).reduce((a, b) => Math.max(a, b), 0);
  const v = c.candidates.length ? runVerdict(worst) : null;
  const candidates = c.candidates
    .map(
      (x) =>
        `<span>${h(x.label)}${x.passed !== null && x.cases !== null ? ` ${x.passed}/${x.cases} passed` : ''}</span>`,
    )
    .join(' · ');
  const link = c.html ? `<a href="${href(c.folder, 'compare.html')}">compare.html</a>` : '';
  return `<li class="item" data-compare="${h(c.folder)}"><span class="verdict ${v?.tone ?? ''}">${v ? v.word : 'COMPARE'}</span><span class="run">${c.html ? `<a class="id" href="${href(c.folder, 'compare.html')}">${h(c.folder)}</a>` : `<span class="id">${h(c.folder)}</span>`}${c.reference ? `<span class="tags">against ${h(c.reference)}</span>` : ''}</span><span class="counts">${candidates || '<span class="muted">compare.json unreadable</span>'}</span><span class="links">${link}</span></li>`;
}

/** A relative link to a file under the index's folder, each path segment encoded. */
function href(...segments: string[]): string {
  return h(segments.map((s) => encodeURIComponent(s)).join('/'));
}

/** `2026-11-28 06:55 UTC` from an ISO time (the text as given when it is not one). */
function utc(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}
