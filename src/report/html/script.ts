import { COUNT_WORDS, STATUS_WORDS } from '../../core/words.js';
import { REVIEW_RANK } from '../../fold/review.js';
import { DETAIL_SCRIPT } from './script-detail.js';
import { TRANSCRIPT_SCRIPT } from './script-transcript.js';
import { DIFF_SCRIPT } from './script-diff.js';
import { PAGING_SCRIPT } from './script-paging.js';
import { SCROLL_SCRIPT } from './scroll.js';
import { wordDiff } from './word-diff.js';

/**
 * The page's only script, inlined and allowed by its CSP hash. It reads the embedded JSON,
 * filters and sorts in memory, and builds rows 100 at a time and a case's details only when
 * it is opened, so a report of many thousand cases loads as fast as a small one. Every text
 * from the report goes in through textContent; nothing is parsed as markup or run as code.
 */
const CLIENT = String.raw`
// Marks let a reviewer (or a test) see how long the page's own work takes.
performance.mark('driftcheck:start');
const PAGE = 100;
const data = JSON.parse(document.getElementById('report-data').textContent);
const cases = data.cases;
const systems = data.systems || {};
// A brief case (it passed every sample, nothing changed) comes as a row of counts: what the
// list needs of it is known from that alone.
const NO_DRIFT = [];
const NEW_CASE = [{ kind: 'new_case', severity: 'info', message: '' }];
cases.forEach(function (c) {
  if (!c.brief) return;
  c.status = 'pass';
  c.rank = ${REVIEW_RANK.passed};
  c.regressed = false;
  c.drift = c.new_case ? NEW_CASE : NO_DRIFT;
  c.samples = { sent: c.sent, passed: c.passed };
});
// Regressions first, then errors, failures, warnings; plan order within a rank (the sort is stable).
cases.sort(function (a, b) { return a.rank - b.rank; });
const state = { view: 'all', kind: '', q: '' };
const list = document.getElementById('cases');
const more = document.getElementById('more');
const count = document.getElementById('count');
const ALL = cases;
const LIST = list;
const COUNT_SUFFIX = ', regressions first.';
const query = document.getElementById('q');
const kind = document.getElementById('kind');
const wide = window.matchMedia('(min-width: 52rem)');
let diffMode = wide.matches ? 'split' : 'inline';

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
function id(c) { return c.id; }
function drifted(c) { return c.drift.some(function (d) { return d.kind !== 'new_case'; }); }
// The words module's words (core/words.ts), as every other view prints them.
const STATUS_WORD = ${JSON.stringify(STATUS_WORDS)};
const REGRESSED = ${JSON.stringify(COUNT_WORDS.regressed)};
function badge(c) {
  if (c.regressed) return [REGRESSED, 'bad'];
  if (c.status === 'error' || c.status === 'fail') return [STATUS_WORD[c.status], 'bad'];
  if (c.status === 'not_run') return [STATUS_WORD.not_run, 'muted'];
  if (c.drift.some(function (d) { return d.severity === 'warn'; })) return ['drift', 'warn'];
  return ['pass', 'ok'];
}
// A conversation's error named by where it happened (turn 2, step 3), as every view says it.
function errorLine(c) {
  const e = c.error;
  return (c.error_place ? c.error_place + ': ' : '') + e.kind + (e.http_status ? ' (HTTP ' + e.http_status + ')' : '') + ': ' + e.message;
}
function reason(c) {
  if (c.brief) return '';
  const out = [];
  if (c.error) out.push(errorLine(c));
  else c.checks.forEach(function (k) { if (!k.pass) out.push(k.type + ': ' + k.message); });
  c.drift.forEach(function (d) { if (d.severity !== 'info' && d.kind !== 'new_error') out.push(d.message); });
  if (out.length === 0) c.drift.forEach(function (d) { out.push(d.message); });
  return out.join('; ');
}
function keep(c) {
  if (state.view === 'regressed' && !c.regressed) return false;
  if (state.view === 'drifted' && !drifted(c)) return false;
  if (state.view !== 'all' && state.view !== 'regressed' && state.view !== 'drifted' && c.status !== state.view) return false;
  if (state.kind && !c.drift.some(function (d) { return d.kind === state.kind; })) return false;
  return !state.q || c.id.toLowerCase().indexOf(state.q) !== -1;
}

function row(c) {
  const item = el('details', 'case');
  item.dataset.key = c.id;
  const head = el('summary');
  const b = badge(c);
  const name = el('span', 'id', id(c));
  // The recorded fields' words for the case (a streamed case says so), right after its id.
  let named = name;
  if (c.labels) {
    named = el('span', 'id-labels');
    named.append(name);
    c.labels.forEach(function (l) { named.append(el('span', 'row-label', l)); });
  }
  head.append(el('span', 'badge ' + b[1], b[0]), named, el('span', 'model', c.model || c.requested_model));
  if (c.samples.sent > 1) head.append(el('span', 'samples', c.samples.passed + '/' + c.samples.sent));
  const why = reason(c);
  if (why) head.append(el('span', 'reason', why));
  if (c.history && c.history.since) head.append(el('span', 'since', 'since ' + c.history.since.started_at.slice(0, 10)));
  item.append(head);
  item.addEventListener('toggle', function () {
    if (item.open && item.childElementCount === 1) item.append(c.brief ? briefDetail(c) : detail(c));
  });
  return item;
}

${PAGING_SCRIPT}
document.querySelectorAll('button.view').forEach(function (btn) {
  btn.addEventListener('click', function () {
    state.view = btn.dataset.view;
    document.querySelectorAll('button.view').forEach(function (b) { b.setAttribute('aria-pressed', String(b === btn)); });
    apply();
  });
});
let timer = 0;
query.addEventListener('input', function () {
  clearTimeout(timer);
  timer = setTimeout(function () { state.q = query.value.trim().toLowerCase(); apply(); }, 120);
});
kind.addEventListener('change', function () { state.kind = kind.value; apply(); });
more.addEventListener('click', showMore);
if ('IntersectionObserver' in window) {
  new IntersectionObserver(function (entries) {
    if (entries.some(function (e) { return e.isIntersecting; }) && !more.hidden) showMore();
  }, { rootMargin: '600px' }).observe(more);
}
document.addEventListener('keydown', function (e) {
  if (e.key === '/' && document.activeElement !== query) { e.preventDefault(); query.focus(); }
});
query.disabled = false;
kind.disabled = false;
// A deep link (#suite/case, as the history page makes) opens that case.
function openLinked() {
  const wanted = decodeURIComponent(location.hash.slice(1));
  if (!wanted || !cases.some(function (c) { return c.id === wanted; })) return false;
  query.value = wanted;
  state.q = wanted.toLowerCase();
  apply();
  const target = Array.prototype.find.call(list.children, function (item) { return item.dataset.key === wanted; });
  if (target) { target.open = true; target.scrollIntoView(); }
  return true;
}
window.addEventListener('hashchange', openLinked);
if (!openLinked()) apply();
${SCROLL_SCRIPT}
document.documentElement.dataset.ready = 'true';
performance.mark('driftcheck:ready');
`;

/** The inline script's full text: the word diff's own source, then the page logic and its case details, in a strict IIFE. */
export function clientScript(): string {
  return `(function () {\n'use strict';\nconst wordDiff = ${wordDiff.toString()};\n${CLIENT}${DETAIL_SCRIPT}${TRANSCRIPT_SCRIPT}${DIFF_SCRIPT}})();`;
}
