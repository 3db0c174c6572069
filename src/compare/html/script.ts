import { DIFF_SCRIPT } from '../../report/html/script-diff.js';
import { TRANSCRIPT_SCRIPT } from '../../report/html/script-transcript.js';
import { PAGING_SCRIPT } from '../../report/html/script-paging.js';
import { SCROLL_SCRIPT } from '../../report/html/scroll.js';
import { CHANGE_WORDS, STATUS_WORDS } from '../../core/words.js';
import { wordDiff } from '../../report/html/word-diff.js';
import { chartTree } from './chart-tree.js';

/**
 * compare.html's only script, inlined and allowed by its CSP hash. It reads the embedded
 * comparison, builds the matrix 200 rows at a time, filters and searches in memory, and
 * opens a case (`#case=suite/case`, so a link restores it) as the candidates' answers side
 * by side, each diffed word by word against the reference's (report.html's wordDiff and
 * its drawing), and a conversation's trajectories under them (report.html's transcript). Every text goes in through textContent; nothing is parsed as markup.
 */
const CLIENT = String.raw`
const PAGE = 200;
const data = JSON.parse(document.getElementById('compare-data').textContent);
const rows = data.cases;
const candidates = data.candidates;
const state = { view: 'all', q: '' };
const body = document.getElementById('rows');
const more = document.getElementById('more');
const count = document.getElementById('count');
const ALL = rows;
const LIST = body;
const COUNT_SUFFIX = '. Open a case to see the answers side by side.';
const query = document.getElementById('q');
const detail = document.getElementById('detail');

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
const TONE = { regressed: 'bad', fixed: 'ok', changed: 'warn', same: 'ok', new: 'muted', missing: 'muted', not_run: 'muted', skipped: 'muted' };
// The words module's words (core/words.ts), as every other view prints them.
const WORD = ${JSON.stringify(CHANGE_WORDS)};
const STATUS_WORD = ${JSON.stringify(STATUS_WORDS)};
function statusTone(s) { return s === 'pass' ? 'ok' : s === 'fail' || s === 'error' ? 'bad' : 'muted'; }
function samples(s) { return s ? s.passed + '/' + s.sent : ''; }
function changed(row) { return row.cells.some(function (c) { return c.change === 'regressed' || c.change === 'fixed' || c.change === 'changed' || c.change === 'new'; }); }
// Whether a row (a case) is in a view: a row with any cell of the kind, however many candidates have one.
function inView(row, view) {
  if (view === 'regressed') return row.cells.some(function (c) { return c.change === 'regressed'; });
  if (view === 'changed') return changed(row);
  if (view === 'failing') return row.cells.some(function (c) { return c.status === 'fail' || c.status === 'error'; });
  if (view === 'missing') return row.cells.some(function (c) { return c.change === 'not_run' || c.change === 'missing' || c.change === 'skipped'; });
  return true;
}
function keep(row) {
  return inView(row, state.view) && (!state.q || row.id.toLowerCase().indexOf(state.q) !== -1);
}

function statusCell(status, s, empty) {
  const td = el('td');
  if (status === null) { td.append(el('span', 'muted', s ? samples(s) : empty)); return td; }
  td.append(el('span', 'badge ' + statusTone(status), STATUS_WORD[status]));
  if (s && s.sent > 1) td.append(el('span', 'samples', ' ' + samples(s)));
  return td;
}
function candidateCell(c) {
  const td = el('td', 'cell ' + c.change);
  td.dataset.change = c.change;
  if (c.status === null) { td.append(el('span', 'muted', WORD[c.change])); return td; }
  td.append(el('span', 'badge ' + statusTone(c.status), STATUS_WORD[c.status]));
  if (c.samples && c.samples.sent > 1) td.append(el('span', 'samples', ' ' + samples(c.samples)));
  if (c.change !== 'same') td.append(el('span', 'change ' + TONE[c.change], ' ' + WORD[c.change] + (c.similarity !== null && c.change === 'changed' ? ' ' + c.similarity.toFixed(2) : '')));
  if (c.error_kind) td.append(el('span', 'why', ' ' + c.error_kind));
  return td;
}
function row(r) {
  const tr = el('tr');
  tr.dataset.key = r.id;
  const head = el('th');
  head.scope = 'row';
  const open = el('button', 'open', r.id);
  open.type = 'button';
  open.addEventListener('click', function () { location.hash = 'case=' + encodeURIComponent(r.id); });
  head.append(open);
  tr.append(head, statusCell(r.reference.status, r.reference.samples, '—'));
  r.cells.forEach(function (c) { tr.append(candidateCell(c)); });
  return tr;
}
${PAGING_SCRIPT}
// A case's answers side by side: the reference's, then each candidate's diffed against it.
function pane(title, tone, lines, content, reference, transcript, other) {
  const p = el('section', 'pane');
  const h = el('h3');
  h.append(el('span', 'badge ' + tone[1], tone[0]), document.createTextNode(' ' + title));
  p.append(h);
  const dl = el('dl', 'meta');
  lines.forEach(function (l) { if (l[1] !== null && l[1] !== undefined && l[1] !== '') dl.append(el('dt', null, l[0]), el('dd', null, l[1])); });
  p.append(dl);
  if (content === null) p.append(el('p', 'muted', 'no answer'));
  else if (reference === null || reference === undefined) p.append(el('pre', 'text', content));
  else p.append(inline(wordDiff(reference, content)));
  // A conversation's trajectory under its answer, its requests marked where they called other tools than the reference's.
  if (transcript) p.append(transcriptColumn(transcript, { title: 'trajectory', other: other }));
  return p;
}
function openCase() {
  const m = /^#case=(.*)$/.exec(location.hash);
  const wanted = m ? decodeURIComponent(m[1]) : '';
  const r = rows.find(function (x) { return x.id === wanted; });
  document.querySelectorAll('#rows tr.selected').forEach(function (tr) { tr.classList.remove('selected'); });
  if (!r) { detail.hidden = true; detail.replaceChildren(); return false; }
  if (!matches.includes(r)) { state.view = 'all'; state.q = ''; query.value = ''; pressed('all'); apply(); }
  while (shown < matches.indexOf(r) + 1) showMore();
  const tr = Array.prototype.find.call(body.children, function (x) { return x.dataset.key === r.id; });
  if (tr) tr.classList.add('selected');
  const head = el('div', 'detail-head');
  head.append(el('h2', 'id', r.id));
  const close = el('button', 'mode', 'close');
  close.type = 'button';
  close.addEventListener('click', function () { history.replaceState(null, '', location.pathname + location.search); openCase(); });
  head.append(close);
  const legend = el('p', 'legend');
  legend.append(el('del', null, 'only in ' + data.reference.label), document.createTextNode(' '), el('ins', null, 'only in the candidate'));
  const ref = r.reference;
  const panes = el('div', 'panes');
  panes.append(pane(data.reference.label + ' (reference)', ref.status === null ? ['unknown', 'muted'] : [STATUS_WORD[ref.status], statusTone(ref.status)], [['samples', samples(ref.samples)]], ref.content, null, ref.transcript, null));
  r.cells.forEach(function (c, i) {
    const lines = [
      ['against the reference', WORD[c.change] + (c.similarity !== null ? ' (similarity ' + c.similarity.toFixed(2) + ')' : '')],
      ['samples', samples(c.samples)],
      ['model', c.model],
      ['provider', c.providers.join(', ')],
      ['latency', c.latency_ms === null ? null : c.latency_ms + ' ms'],
      ['time to first token', c.ttft_ms === undefined || c.ttft_ms === null ? null : c.ttft_ms + ' ms'],
      ['cost', c.cost === null ? null : '$' + c.cost],
      ['why', c.note],
    ];
    const tone = c.status === null ? [WORD[c.change], 'muted'] : [STATUS_WORD[c.status], statusTone(c.status)];
    const p = pane(candidates[i].label, tone, lines, c.status === null ? null : c.content, ref.content, c.status === null ? null : c.transcript, ref.transcript);
    if (candidates[i].dir !== null && c.status !== null) {
      const link = el('a', 'report-link', 'this case in the run\'s report.html');
      link.href = candidates[i].dir.split('/').map(encodeURIComponent).join('/') + '/report.html#' + encodeURIComponent(r.id);
      p.append(link);
    }
    panes.append(p);
  });
  detail.replaceChildren(head, legend, panes);
  detail.hidden = false;
  detail.scrollIntoView();
  return true;
}

function pressed(view) {
  document.querySelectorAll('button.view').forEach(function (b) { b.setAttribute('aria-pressed', String(b.dataset.view === view)); });
}
// Each chip counts the rows its view shows (inView): what a click on it lists.
document.querySelectorAll('button.view').forEach(function (btn) {
  const n = btn.querySelector('b');
  if (n) n.textContent = String(ALL.filter(function (r) { return inView(r, btn.dataset.view); }).length);
});
document.querySelectorAll('button.view').forEach(function (btn) {
  btn.addEventListener('click', function () { state.view = btn.dataset.view; pressed(state.view); apply(); });
});
let timer = 0;
query.addEventListener('input', function () {
  clearTimeout(timer);
  timer = setTimeout(function () { state.q = query.value.trim().toLowerCase(); apply(); }, 120);
});
more.addEventListener('click', showMore);
document.addEventListener('keydown', function (e) {
  if (e.key === '/' && document.activeElement !== query) { e.preventDefault(); query.focus(); }
});
query.disabled = false;
window.addEventListener('hashchange', openCase);
// The chart drawn again at the width it is shown (chartTree, the page writer's own layout):
// its text keeps its size on a phone, and it fills its box on a wide screen. When some
// candidate streamed, the reader picks its axis (cost, or time to first token): the chart,
// its heading and the line naming whom it could not place are drawn again for it.
const chartBox = document.getElementById('chart-box');
const charts = chartBox ? JSON.parse(chartBox.dataset.charts) : null;
let chartInput = chartBox ? charts[JSON.parse(chartBox.dataset.chart)] : null;
const axisPick = document.getElementById('chart-axis');
function svgNode(n) {
  const e = document.createElementNS('http://www.w3.org/2000/svg', n.tag);
  Object.keys(n.attrs).forEach(function (k) { e.setAttribute(k, String(n.attrs[k])); });
  if (n.text !== undefined) e.textContent = n.text;
  (n.children || []).forEach(function (c) { e.append(svgNode(c)); });
  return e;
}
let chartWidth = 0;
let chartTimer = 0;
function drawChart() {
  if (!chartInput) return;
  const width = Math.max(280, Math.floor(chartBox.clientWidth));
  if (width === chartWidth) return;
  chartWidth = width;
  chartBox.replaceChildren(svgNode(chartTree(chartInput, width, width < 480 ? 260 : 300)));
}
drawChart();
window.addEventListener('resize', function () { clearTimeout(chartTimer); chartTimer = setTimeout(drawChart, 100); });
if (axisPick && charts) {
  axisPick.addEventListener('change', function () {
    const picked = charts[axisPick.value];
    if (!picked) return;
    chartInput = picked;
    chartWidth = 0;
    drawChart();
    document.getElementById('chart-title').textContent = picked.title;
    const unplaced = document.getElementById('chart-unplaced');
    unplaced.textContent = picked.unplaced || '';
    unplaced.hidden = !picked.unplaced;
  });
  axisPick.disabled = false;
}
apply();
openCase();
${SCROLL_SCRIPT}
document.documentElement.dataset.ready = 'true';
`;

/** The inline script's full text: the word diff's own source and its drawing, then the page logic, in a strict IIFE. */
export function compareScript(): string {
  return `(function () {\n'use strict';\nconst wordDiff = ${wordDiff.toString()};\nconst chartTree = ${chartTree.toString()};\n${CLIENT}${TRANSCRIPT_SCRIPT}${DIFF_SCRIPT}})();`;
}
