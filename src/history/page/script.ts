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
const SVG = 'http://www.w3.org/2000/svg';
const STATUS = { p: 'pass', f: 'fail', e: 'error', n: 'not run', '.': 'absent' };

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}
const day = (i) => (nights[i] ? nights[i].at.slice(0, 10) : '');
const pct = (x) => (x === null || x === undefined ? '–' : Math.round(100 * x) + ' %');
const num = (x) => (x === null || x === undefined ? '–' : x >= 100 ? Math.round(x).toLocaleString('en') : String(+x.toPrecision(3)));
const usd = (x) => (x === null || x === undefined ? '–' : '$' + x.toFixed(x < 1 ? 4 : 2));
const shareText = (ch) => (ch === 'a' ? '100 %' : ch === '.' ? '–' : ch + '0–' + ch + '9 %');

function line(values, cls, top) {
  const g = svg('g', {});
  let points = [];
  const flush = () => {
    if (points.length === 1) points.push(points[0].replace(/^[^,]+/, (x) => String(+x + 0.5)));
    if (points.length) g.appendChild(svg('polyline', { class: cls, points: points.join(' ') }));
    points = [];
  };
  values.forEach((v, i) => {
    if (v === null) return flush();
    points.push((i + 0.5) + ',' + (100 - (top > 0 ? (98 * v) / top : 0)).toFixed(2));
  });
  flush();
  return g;
}

function chart(title, series, events, fmt, fixedTop) {
  const fig = el('figure', 'chart-box');
  const caption = el('figcaption');
  const last = [...series[0]].reverse().find((v) => v !== null);
  caption.append(el('span', null, title), el('span', null, 'latest ' + fmt(last)));
  const top = fixedTop || Math.max(0, ...series.flat().filter((v) => v !== null)) * 1.05;
  const box = svg('svg', { class: 'chart', viewBox: '0 0 ' + Math.max(1, N) + ' 100', preserveAspectRatio: 'none', role: 'img' });
  box.appendChild(svg('title', {})).textContent = title;
  for (const e of events) {
    const mark = svg('line', { class: 'event ' + e.kind, x1: e.night + 0.5, x2: e.night + 0.5, y1: 0, y2: 100 });
    mark.appendChild(svg('title', {})).textContent = day(e.night) + ': ' + e.text;
    box.appendChild(mark);
  }
  series.forEach((values, i) => box.appendChild(line(values, i ? 'line alt' : 'line', top)));
  fig.append(caption, box);
  return fig;
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
    const events = [...s.events, ...data.events].sort((a, b) => a.night - b.night);
    charts.append(
      chart('pass rate', [s.rate], events, pct, 1),
      chart('cost (USD)', [s.cost], events, usd),
      chart('tokens', [s.tokens], events, num),
      chart('latency p50 / p95 (ms)', [s.p50, s.p95], events, num),
    );
    section.append(charts);
    if (events.length) {
      const list = el('ul', 'events');
      for (const e of events.slice(-20)) list.append(el('li', e.kind, day(e.night) + ' · ' + e.text));
      section.append(list);
    }
    root.append(section);
  }
}

function matches(c) {
  if (state.suite && c.suite !== state.suite) return false;
  if (state.q && !c.id.toLowerCase().includes(state.q)) return false;
  if (state.view === 'failing') return c.failing_since !== null;
  if (state.view === 'trending') return c.trend !== null;
  if (state.view === 'flaky') return c.flips >= 2;
  return true;
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
  const trend = c.trend ? pct(c.trend.before) + ' → ' + pct(c.trend.after) + ' since ' + day(c.trend.began) : '';
  tr.append(id, el('td', 'now', nowOf(c)), el('td', null, c.failing_since === null ? '' : day(c.failing_since)),
    el('td', null, c.flips), el('td', 'warn', trend));
  return tr;
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
function color(ch, share, css) {
  if (ch === 'p') return css.ok;
  if (ch === 'f') return share === '.' || share === 'a' ? css.bad : 'rgba(196,38,46,' + (1 - Number(share) / 12).toFixed(2) + ')';
  if (ch === 'e') return css.warn;
  if (ch === 'n') return css.line;
  return null;
}
function drawHeat() {
  const canvas = $('heat');
  const rows = matched.slice(0, HEAT_ROWS);
  const cw = Math.max(2, Math.min(12, Math.floor(1100 / Math.max(1, N))));
  const ch = rows.length > 100 ? 3 : 8;
  canvas.width = Math.max(1, N * cw);
  canvas.height = Math.max(1, rows.length * ch);
  $('heat-note').textContent = rows.length
    ? (matched.length > HEAT_ROWS ? 'first ' + HEAT_ROWS + ' of ' + matched.length + ' cases; ' : '') +
      day(0) + ' → ' + day(N - 1) + '; a dark tick marks the first failing night; click a cell to open the case'
    : '';
  const ctx = canvas.getContext('2d');
  const style = getComputedStyle(document.documentElement);
  const css = { ok: style.getPropertyValue('--ok'), bad: style.getPropertyValue('--bad'), warn: style.getPropertyValue('--warn'), line: style.getPropertyValue('--line'), text: style.getPropertyValue('--text') };
  rows.forEach((c, r) => {
    for (let i = 0; i < N; i++) {
      const fill = color(c.status[i], c.rate[i], css);
      if (!fill) continue;
      ctx.fillStyle = fill;
      ctx.fillRect(i * cw, r * ch, cw, ch);
    }
    if (c.failing_since !== null) {
      ctx.fillStyle = css.text;
      ctx.fillRect(c.failing_since * cw, r * ch, Math.max(1, cw / 3), ch);
    }
  });
  canvas.onclick = (event) => {
    const box = canvas.getBoundingClientRect();
    const c = rows[Math.floor(((event.clientY - box.top) * canvas.height) / box.height / ch)];
    if (c) location.hash = c.id;
  };
}

function flaky() {
  const list = data.cases.filter((c) => (!state.suite || c.suite === state.suite) && c.flips > 0)
    .sort((a, b) => b.flips - a.flips || (a.id < b.id ? -1 : 1)).slice(0, 20);
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
  const facts = el('p', 'muted', 'now ' + nowOf(c) + (c.failing_since !== null ? ' · failing since ' + day(c.failing_since) : '') +
    ' · ' + c.flips + ' flips' + (c.trend ? ' · trending down ' + pct(c.trend.before) + ' → ' + pct(c.trend.after) + ' since ' + day(c.trend.began) : ''));
  const list = el('ol');
  for (let i = N - 1; i >= 0; i--) {
    if (c.status[i] === '.') continue;
    const li = el('li');
    const a = el('a', 'report-link', 'report');
    a.href = reportLink(c, i);
    li.append(el('span', null, day(i)), el('span', 'chip ' + (c.status[i] === 'p' ? 'ok' : 'bad'), STATUS[c.status[i]]),
      el('span', 'muted', shareText(c.rate[i])), a);
    if (i === c.failing_since) li.append(el('span', 'bad', 'started failing'));
    if (c.trend && i === c.trend.began) li.append(el('span', 'warn', 'trend began'));
    list.append(li);
  }
  box.append(close, head, facts, list);
  box.hidden = false;
  box.scrollIntoView({ block: 'nearest' });
}

const suiteSelect = $('suite');
for (const s of data.suites) suiteSelect.append(el('option', null, s.suite));
suiteSelect.onchange = () => { state.suite = suiteSelect.value; renderSuites(); renderCases(); flaky(); };
$('q').oninput = () => { state.q = $('q').value.trim().toLowerCase(); renderCases(); };
for (const b of document.querySelectorAll('button.view')) {
  b.onclick = () => {
    state.view = b.dataset.view;
    for (const x of document.querySelectorAll('button.view')) x.setAttribute('aria-pressed', String(x === b));
    renderCases();
  };
}
$('more').onclick = more;
window.addEventListener('hashchange', openCase);
renderSuites();
renderCases();
flaky();
openCase();
document.documentElement.dataset.ready = 'true';
performance.mark('driftcheck:ready');
`;

export function trendScript(): string {
  return CLIENT;
}
