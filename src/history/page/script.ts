import { COUNT_DIGITS } from './data.js';
import { formatUsd } from '../../util/numbers.js';
import { SCROLL_SCRIPT } from '../../report/html/scroll.js';
import { CHART_SCRIPT } from './script-chart.js';

/**
 * The trend page's only script, inlined and allowed by its CSP hash. Charts are SVG built
 * with createElementNS, the heat map one canvas; every text from the history goes in
 * through textContent, nothing is parsed as markup.
 */
const CLIENT = String.raw`
performance.mark('driftcheck:start');
const data = JSON.parse(document.getElementById('trend-data').textContent);
const nights = data.nights;
const N = nights.length;
const byId = new Map(data.cases.map((c) => [c.id, c]));
const state = { suite: '', q: '', view: 'all' };
const PAGE = 100;
let shown = 0;
let matched = [];
const $ = (id) => document.getElementById(id);
const STATUS = { p: 'pass', f: 'fail', e: 'error', n: 'not run', '.': 'absent' };

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
const DIGITS = ${JSON.stringify(COUNT_DIGITS)};
const label = (i) => (nights[i] ? nights[i].label : '');
const pct = (x) => (x === null || x === undefined || Number.isNaN(x) ? '–' : Math.round(100 * x) + ' %');
const num = (x) => (x === null || x === undefined ? '–' : x >= 100 ? Math.round(x).toLocaleString('en') : String(+x.toPrecision(3)));
// A cost as every page says it (formatUsd: four decimals from a cent, else three significant
// digits), and an axis value to three significant digits ($0.025, never $0.0000).
const formatUsd = ${formatUsd.toString()};
const usd = (x) => (x === null || x === undefined ? '–' : formatUsd(x));
const usdAxis = (x) => (x === 0 ? '$0' : '$' + Number(x.toPrecision(3)));
// A case's exact counts on night i: [passes, samples], or null when it sent no sample.
function countOf(c, i) {
  const ch = c.passes[i];
  if (ch === undefined || ch === '.') return null;
  return ch === '~' ? c.other[i] : [DIGITS.indexOf(ch), c.samples];
}
const countText = (k) => (k ? k[0] + '/' + k[1] : 'no sample');
${CHART_SCRIPT}
// A suite's events and the run-level ones, in night order: what its charts mark.
function eventsOf(suite) {
  const s = data.suites.find((x) => x.suite === suite);
  return [...(s ? s.events : []), ...data.events].sort((a, b) => a.night - b.night);
}

function renderSuites() {
  const root = $('suites');
  root.replaceChildren();
  for (const s of data.suites) {
    if (state.suite && s.suite !== state.suite) continue;
    const section = el('section', 'suite');
    section.dataset.suite = s.suite;
    section.append(el('h2', null, s.suite));
    const charts = el('div', 'charts');
    const events = eventsOf(s.suite);
    const rate = s.passes.map((k, i) => (k === null ? null : k / s.samples[i]));
    const orNone = (v, fmt) => (v === null || v === undefined ? 'did not run' : fmt(v));
    const ran = (i) => s.samples[i] !== null;
    charts.append(
      chart('pass rate', [rate], events, pct,
        (i) => (rate[i] === null ? 'did not run' : pct(rate[i]) + ' (' + s.passes[i] + '/' + s.samples[i] + ' samples)'), 1),
      // Only a suite whose cases had tools on some night: a plain suite shows no tool chart.
      ...(s.tools ? [toolChart(s.tools, events)] : []),
      // Only a suite with conversations (tool loops, scripted turns): its steps and its within-max_steps rate.
      ...(s.loops ? loopCharts(s.loops, events) : []),
      // Per 1,000 cases; a night the suite ran without a cost says so, not "did not run".
      chart('cost per 1,000 cases (USD)', [s.cost_per_1000], events, usdAxis,
        (i) => (!ran(i) ? 'did not run' : s.cost_per_1000[i] === null ? 'no cost reported' : usd(s.cost_per_1000[i])),
        undefined, undefined, 'no cost reported (no prices)'),
      chart('tokens', [s.tokens], events, num, (i) => orNone(s.tokens[i], num)),
      chart('latency p50/p95 (ms)', [s.p50, s.p95], events, num,
        (i) => (s.p50[i] === null ? 'did not run' : num(s.p50[i]) + ' / ' + num(s.p95[i]))),
      // Only a suite with streamed cases: the median of their times to first token.
      ...(s.ttft ? [ttftChart(s.ttft, events)] : []),
    );
    section.append(charts);
    if (events.length) {
      const list = el('ul', 'events');
      for (const e of events.slice(-20)) list.append(el('li', e.kind, label(e.night) + ' · ' + e.text));
      section.append(list);
    }
    root.append(section);
  }
}

// The night a case first appears in the history (-1: never).
function firstNight(c) {
  for (let i = 0; i < c.status.length; i++) if (c.status[i] !== '.') return i;
  return -1;
}
// What each view lists, one predicate each: the list filters with it, its chip and tonight's
// summary count with it, so a count is always what a click lists.
const VIEWS = {
  all: () => true,
  failing: (c) => c.failing_since !== null,
  started: (c) => c.failing_since !== null && c.failing_since === N - 1,
  trending: (c) => c.trend !== null,
  fresh: (c) => firstNight(c) === N - 1,
  flaky: (c) => c.flips >= 2,
};
const inSuite = (c) => !state.suite || c.suite === state.suite;
function matches(c) {
  if (!inSuite(c)) return false;
  if (state.q && !c.id.toLowerCase().includes(state.q)) return false;
  return VIEWS[state.view](c);
}
function setView(view) {
  state.view = view;
  for (const x of document.querySelectorAll('button[data-view]')) x.setAttribute('aria-pressed', String(x.dataset.view === view));
  renderCases();
}
// Each chip's count: the cases of the chosen suite its view lists.
function countViews() {
  for (const b of document.querySelectorAll('button.view')) {
    const n = b.querySelector('.n');
    if (n) n.textContent = String(data.cases.filter((c) => inSuite(c) && VIEWS[b.dataset.view](c)).length);
  }
}
// Tonight (the newest night) first: how many cases fail now, how many started tonight,
// trend down or are new, each a button to list them; the ones that started failing tonight
// and those trending down by name.
function renderTonight() {
  const box = $('tonight');
  box.replaceChildren();
  const night = nights[N - 1];
  if (!night) return;
  const scope = data.cases.filter(inSuite);
  const ran = scope.filter((c) => c.status[N - 1] !== undefined && c.status[N - 1] !== '.').length;
  box.append(el('h2', null, 'Tonight: ' + night.label + ' · ' + (night.exit === 0 ? 'pass' : 'exit ' + night.exit) + ' · ' + ran + ' of ' + scope.length + ' cases ran'));
  const facts = el('ul', 'facts');
  const fact = (view, text, tone) => {
    const n = scope.filter(VIEWS[view]).length;
    const li = el('li');
    const b = el('button', 'fact ' + (n ? tone : 'muted'), n + ' ' + text);
    b.type = 'button';
    b.dataset.view = view;
    b.setAttribute('aria-pressed', String(state.view === view));
    b.onclick = () => setView(view);
    li.append(b);
    return li;
  };
  facts.append(
    fact('failing', 'failing now', 'bad'),
    fact('started', 'started failing tonight', 'bad'),
    fact('trending', 'trending down', 'warn'),
    fact('fresh', 'new tonight', 'muted'),
  );
  box.append(facts);
  const named = (view, title) => {
    const list = scope.filter(VIEWS[view]);
    if (!list.length) return;
    const p = el('p', 'named', title + ': ');
    list.slice(0, 10).forEach((c, i) => {
      const a = el('a', null, c.id);
      a.href = '#' + c.id;
      p.append(...(i ? [document.createTextNode(', '), a] : [a]));
    });
    if (list.length > 10) p.append(document.createTextNode(' and ' + (list.length - 10) + ' more'));
    box.append(p);
  };
  named('started', 'started failing tonight');
  named('trending', 'trending down');
}
function rank(a, b) {
  if (state.view === 'flaky') return b.flips - a.flips || (a.id < b.id ? -1 : 1);
  const w = (c) => (c.trend ? 2 : 0) + (c.failing_since !== null ? 1 : 0);
  return w(b) - w(a) || (a.id < b.id ? -1 : 1);
}
function nowOf(c) {
  for (let i = c.status.length - 1; i >= 0; i--) if (c.status[i] !== '.') return STATUS[c.status[i]];
  return 'absent';
}

function row(c) {
  const tr = el('tr', 'case');
  const id = el('td', 'id');
  const a = el('a', null, c.id);
  a.href = '#' + c.id;
  id.append(a);
  tr.append(id, el('td', 'now', nowOf(c)), el('td', null, c.failing_since === null ? '' : label(c.failing_since)),
    el('td', null, c.flips), el('td', c.trend ? 'trend warn' : 'trend muted', trendText(c)));
  return tr;
}
// The slow-drift detector's state: its alarm, else what it holds the case to, or how much
// history it still needs before it may raise one.
function trendText(c) {
  if (c.trend) return 'trending down ' + pct(c.trend.before) + ' → ' + pct(c.trend.after) + ' since ' + label(c.trend.began);
  const w = c.watch;
  if (!w) return 'no nights';
  const held = pct(w.passes / w.samples) + ' (' + w.passes + '/' + w.samples + ')';
  const dip = w.since === null ? '' : 'below its rate since ' + label(w.since);
  if (w.samples < w.warmup) return 'learning: ' + w.samples + ' of ' + w.warmup + ' samples' + (dip ? '; ' + dip : '');
  if (dip) return 'watching: ' + dip + ', held to ' + held;
  return 'steady at ' + held;
}

function renderCases() {
  matched = data.cases.filter(matches).sort(rank);
  shown = 0;
  $('rows').replaceChildren();
  $('count').textContent = matched.length ? matched.length + ' of ' + data.cases.length + ' cases' : 'No case matches.';
  more();
  drawHeat();
}
function more() {
  const next = matched.slice(shown, shown + PAGE);
  $('rows').append(...next.map(row));
  shown += next.length;
  $('more').hidden = shown >= matched.length;
  $('more').textContent = 'show ' + Math.min(PAGE, matched.length - shown) + ' more';
}

const HEAT_ROWS = 400;
// Up to this many rows each row is tall enough to carry its case's name.
const LABELLED_ROWS = 100;
function color(c, i, css) {
  const ch = c.status[i];
  if (ch === 'p') return css.ok;
  if (ch === 'f') {
    const k = countOf(c, i);
    return k && k[1] > 0 && k[0] > 0 ? 'rgba(196,38,46,' + (1 - (0.6 * k[0]) / k[1]).toFixed(2) + ')' : css.bad;
  }
  if (ch === 'e') return css.warn;
  if (ch === 'n') return css.line;
  return null;
}
function fitText(ctx, text, width) {
  if (ctx.measureText(text).width <= width) return text;
  let n = text.length;
  while (n > 1 && ctx.measureText('…' + text.slice(text.length - n)).width > width) n--;
  return '…' + text.slice(text.length - n);
}
function drawHeat() {
  const canvas = $('heat');
  const rows = matched.slice(0, HEAT_ROWS);
  const labelled = rows.length <= LABELLED_ROWS;
  const ctx = canvas.getContext('2d');
  const style = getComputedStyle(document.documentElement);
  const css = { ok: style.getPropertyValue('--ok'), bad: style.getPropertyValue('--bad'), warn: style.getPropertyValue('--warn'), line: style.getPropertyValue('--line'), text: style.getPropertyValue('--text'), muted: style.getPropertyValue('--muted') };
  const font = '12px system-ui, sans-serif';
  const small = '11px system-ui, sans-serif';
  ctx.font = font;
  const left = labelled && rows.length ? Math.min(240, Math.ceil(Math.max(...rows.map((c) => ctx.measureText(c.id).width)))) + 10 : 0;
  // The nights' short names stand upright over their columns: as tall as the longest.
  ctx.font = small;
  let widest = 0;
  for (let i = 0; i < N; i++) widest = Math.max(widest, ctx.measureText(nights[i].axis).width);
  const top = Math.ceil(widest) + 12;
  const room = Math.max(300, canvas.parentElement.clientWidth - 14) - left;
  // Few nights get wide columns (up to 28 px), so each has its name over it.
  const cw = Math.max(2, Math.min(28, Math.floor(room / Math.max(1, N))));
  const ch = labelled ? 16 : 3;
  canvas.width = Math.max(1, left + N * cw);
  canvas.height = rows.length ? top + rows.length * ch : 1;
  $('heat-note').textContent = rows.length
    ? (matched.length > HEAT_ROWS ? 'first ' + HEAT_ROWS + ' of ' + matched.length + ' cases; ' : '') +
      'one row per case, one column per night (' + label(0) + ' → ' + label(N - 1) + '): green every sample passed, red some failed (paler: more passed), amber error, grey not run; a dark tick marks the first failing night. Point at a cell for its counts, click it to open the case.'
    : '';
  if (!rows.length) return;
  ctx.textBaseline = 'middle';
  // Every column's night named, turned upright; where columns are narrower than a line of
  // text, every few (the first of each group), each with a tick.
  const step = Math.max(1, Math.ceil(13 / cw));
  ctx.font = small;
  ctx.fillStyle = css.muted;
  for (let i = 0; i < N; i += step) {
    ctx.save();
    ctx.translate(left + i * cw + cw / 2, top - 7);
    ctx.rotate(-Math.PI / 2);
    ctx.fillText(nights[i].axis, 0, 0);
    ctx.restore();
    ctx.fillRect(left + i * cw, top - 4, 1, 3);
  }
  // How many columns carry their night's name, and where the cells begin (what a reader, or a
  // test, can check of a canvas).
  canvas.dataset.named = String(Math.ceil(N / step));
  canvas.dataset.top = String(top);
  ctx.font = font;
  rows.forEach((c, r) => {
    const y = top + r * ch;
    if (labelled) {
      ctx.fillStyle = css.text;
      ctx.fillText(fitText(ctx, c.id, left - 10), 0, y + ch / 2);
    }
    for (let i = 0; i < N; i++) {
      const fill = color(c, i, css);
      if (!fill) continue;
      ctx.fillStyle = fill;
      ctx.fillRect(left + i * cw, y, labelled && cw > 3 ? cw - 1 : cw, labelled ? ch - 2 : ch);
    }
    if (c.failing_since !== null) {
      ctx.fillStyle = css.text;
      ctx.fillRect(left + c.failing_since * cw, y, Math.max(1, Math.min(4, cw / 3)), labelled ? ch - 2 : ch);
    }
  });
  const cellAt = (event) => {
    const box = canvas.getBoundingClientRect();
    const x = ((event.clientX - box.left) * canvas.width) / box.width - left;
    const y = ((event.clientY - box.top) * canvas.height) / box.height - top;
    const c = y < 0 ? undefined : rows[Math.floor(y / ch)];
    const i = x < 0 ? -1 : Math.floor(x / cw);
    return { c, i: i < N ? i : -1 };
  };
  canvas.onclick = (event) => {
    const { c } = cellAt(event);
    if (c) location.hash = c.id;
  };
  canvas.onmousemove = (event) => {
    const { c, i } = cellAt(event);
    $('heat-readout').textContent = c && i >= 0
      ? c.id + ' · ' + label(i) + ' · ' + STATUS[c.status[i]] + (countOf(c, i) ? ' · ' + countText(countOf(c, i)) + ' passed' : '')
      : '';
  };
}

function flaky() {
  // The flaky view's cases (VIEWS.flaky: more than one flip), most flips first.
  const list = data.cases.filter((c) => inSuite(c) && VIEWS.flaky(c))
    .sort((a, b) => b.flips - a.flips || (a.id < b.id ? -1 : 1)).slice(0, 20);
  // No case flipped: a sentence, not an empty table.
  $('flaky-table').hidden = list.length === 0;
  $('flaky-none').hidden = list.length > 0;
  $('flaky-none').textContent = 'None: no case ' + (state.suite ? 'of ' + state.suite + ' ' : '') + 'went between pass and fail more than once over these ' + N + ' nights.';
  $('flaky').replaceChildren(...list.map((c) => {
    const tr = el('tr');
    const id = el('td', 'id');
    const a = el('a', null, c.id);
    a.href = '#' + c.id;
    id.append(a);
    tr.append(id, el('td', null, c.flips), el('td', null, nowOf(c)));
    return tr;
  }));
}

// A conversation's night: its steps, its within-max_steps count and its trajectory's digest,
// saying when the sequence of tools is another than on its night before.
function loopText(loops, i) {
  const l = loops[i];
  let before = i - 1;
  while (before >= 0 && !loops[before]) before--;
  const changed = before >= 0 && loops[before][3] !== l[3];
  return 'steps ' + stepsText(l) + ' · within max_steps ' + withinText(l) + ' · trajectory ' + l[3] +
    (changed ? ' (other tools than on ' + label(before) + ')' : '');
}
function reportLink(c, night) {
  const name = c.id.slice(c.suite.length + 1);
  return data.link.split('{run}').join(encodeURIComponent(nights[night].id))
    .split('{suite}').join(encodeURIComponent(c.suite)).split('{case}').join(encodeURIComponent(name));
}
function openCase() {
  const box = $('detail');
  let id = '';
  try { id = decodeURIComponent(location.hash.slice(1)); } catch { id = ''; }
  const c = byId.get(id);
  if (!c) { box.hidden = true; return; }
  box.replaceChildren();
  const close = el('a', null, 'close');
  close.href = '#';
  const head = el('h2', 'case-id', c.id);
  const facts = el('p', 'muted', 'now ' + nowOf(c) + (c.failing_since !== null ? ' · failing since ' + label(c.failing_since) : '') +
    ' · ' + c.flips + ' flips · trend: ' + trendText(c));
  // The case's own pass rate, and its tool calls when it had tools on some night.
  const charts = el('div', 'charts');
  const events = eventsOf(c.suite);
  const counts = Array.from({ length: N }, (_, i) => countOf(c, i));
  const rate = counts.map((k) => (k && k[1] ? k[0] / k[1] : null));
  charts.append(chart('pass rate', [rate], events, pct,
    (i) => (counts[i] ? pct(rate[i]) + ' (' + countText(counts[i]) + ' samples)' : 'no sample'), 1));
  const tools = c.tools ? Array.from({ length: N }, (_, i) => c.tools[i] || null) : null;
  if (tools) charts.append(toolChart(tools, events));
  const loops = c.loops ? Array.from({ length: N }, (_, i) => c.loops[i] || null) : null;
  if (loops) charts.append(...loopCharts(loops, events));
  const ttft = c.ttft ? Array.from({ length: N }, (_, i) => (c.ttft[i] === undefined ? null : c.ttft[i])) : null;
  if (ttft) charts.append(ttftChart(ttft, events));
  const list = el('ol');
  for (let i = N - 1; i >= 0; i--) {
    if (c.status[i] === '.') continue;
    const li = el('li');
    const a = el('a', 'report-link', 'report');
    a.href = reportLink(c, i);
    const k = countOf(c, i);
    li.append(el('span', 'night', label(i)), el('span', 'chip ' + (c.status[i] === 'p' ? 'ok' : 'bad'), STATUS[c.status[i]]),
      el('span', 'counts muted', k ? countText(k) + ' passed' : 'no sample'), a);
    if (tools && tools[i]) li.append(el('span', 'tools muted', 'tools: ' + toolText(tools[i])));
    if (loops && loops[i]) li.append(el('span', 'loops muted', loopText(loops, i)));
    if (ttft && ttft[i] !== null) li.append(el('span', 'ttft muted', 'time to first token p50 ' + ttftText(ttft[i])));
    if (i === c.failing_since) li.append(el('span', 'bad', 'started failing'));
    if (c.trend && i === c.trend.began) li.append(el('span', 'warn', 'trend began'));
    list.append(li);
  }
  box.append(close, head, facts, charts, list);
  box.hidden = false;
  box.scrollIntoView({ block: 'nearest' });
}

const suiteSelect = $('suite');
for (const s of data.suites) suiteSelect.append(el('option', null, s.suite));
suiteSelect.onchange = () => { state.suite = suiteSelect.value; renderTonight(); countViews(); renderSuites(); renderCases(); flaky(); };
$('q').oninput = () => { state.q = $('q').value.trim().toLowerCase(); renderCases(); };
for (const b of document.querySelectorAll('button.view')) b.onclick = () => setView(b.dataset.view);
$('more').onclick = more;
window.addEventListener('hashchange', openCase);
renderTonight();
countViews();
renderSuites();
renderCases();
flaky();
openCase();
${SCROLL_SCRIPT}
document.documentElement.dataset.ready = 'true';
performance.mark('driftcheck:ready');
`;

export function trendScript(): string {
  return CLIENT;
}
