/**
 * The trend page's charts, a part of its only script (script.ts inlines it): plain SVG line
 * charts with their axes and a read-out of the night under the pointer, and the tool-call
 * chart built on them. Uses the page script's el, label, pct, nights and N.
 */
export const CHART_SCRIPT = String.raw`
const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}
// 1, 2, 2.5 or 5 times a power of ten, at or above x: an axis whose values read at a glance.
function niceTop(x) {
  if (!(x > 0)) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(x)));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= x * 0.9999) return m * p;
  return 10 * p;
}

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
    points.push((i + 0.5) + ',' + yOf(v, top).toFixed(2));
  });
  flush();
  return g;
}

const yOf = (v, top) => 99 - (98 * v) / top;
// A line chart with its axes: values at the top, middle and zero of the y axis, the first,
// middle and last night under it, and the night under the pointer read out in the caption.
// keys, when given, name the series in the caption in their line colours (first, then alt);
// empty is what the caption says when no night has a value (not "did not run").
function chart(title, series, events, fmt, at, fixedTop, keys, empty) {
  const fig = el('figure', 'chart-box');
  const caption = el('figcaption');
  let last = N - 1;
  while (last > 0 && series[0][last] === null) last--;
  const none = series[0].every((v) => v === null);
  const latest = none && empty ? empty : 'latest ' + at(last);
  const readout = el('span', 'readout', latest);
  const name = el('span', null, title);
  if (keys) name.append(...keys.map((k, i) => el('span', i ? 'key alt' : 'key', k)));
  caption.append(name, readout);
  const top = fixedTop || niceTop(Math.max(0, ...series.flat().filter((v) => v !== null)));
  const box = svg('svg', { class: 'chart', viewBox: '0 0 ' + Math.max(1, N) + ' 100', preserveAspectRatio: 'none', role: 'img' });
  box.appendChild(svg('title', {})).textContent = title;
  for (const y of [1, 50, 99]) box.appendChild(svg('line', { class: 'grid', x1: 0, x2: Math.max(1, N), y1: y, y2: y }));
  for (const e of events) {
    const mark = svg('line', { class: 'event ' + e.kind, x1: e.night + 0.5, x2: e.night + 0.5, y1: 0, y2: 100 });
    mark.appendChild(svg('title', {})).textContent = label(e.night) + ': ' + e.text;
    box.appendChild(mark);
  }
  series.forEach((values, i) => box.appendChild(line(values, i ? 'line alt' : 'line', top)));
  const cursor = svg('line', { class: 'cursor', x1: 0, x2: 0, y1: 0, y2: 100, visibility: 'hidden' });
  box.appendChild(cursor);
  box.addEventListener('mousemove', (event) => {
    const r = box.getBoundingClientRect();
    const i = Math.max(0, Math.min(N - 1, Math.floor(((event.clientX - r.left) / r.width) * N)));
    cursor.setAttribute('x1', i + 0.5);
    cursor.setAttribute('x2', i + 0.5);
    cursor.setAttribute('visibility', 'visible');
    readout.textContent = label(i) + ': ' + at(i);
  });
  box.addEventListener('mouseleave', () => {
    cursor.setAttribute('visibility', 'hidden');
    readout.textContent = latest;
  });
  const y = el('div', 'y-axis');
  // A chart with no value on any night has no scale to show.
  y.append(...(none ? [] : [el('span', 'at-top', fmt(top)), el('span', 'at-mid', fmt(top / 2)), el('span', 'at-zero', fmt(0))]));
  const plot = el('div', 'plot');
  plot.append(y, box);
  const x = el('div', 'x-axis');
  // The nights' short names (the time when nights share a date); the readout names a night whole.
  const axis = (i) => (nights[i] ? nights[i].axis : '');
  x.append(el('span', null, axis(0)), el('span', null, N > 2 ? axis(Math.floor((N - 1) / 2)) : ''), el('span', null, N > 1 ? axis(N - 1) : ''));
  fig.append(caption, plot, x);
  return fig;
}

// A night's tool counts [answered, triggered, valid]: the trigger rate (answers that called a
// tool) and the valid-call rate (of those, the ones whose calls were all valid; none when
// nothing was called). toolText says both with their counts (a case's nights); a chart's
// one-line read-out says the counts alone, which fit beside the night's name (its axis
// gives the rates).
const calledRate = (t) => (t && t[0] ? t[1] / t[0] : null);
const validRate = (t) => (t && t[1] ? t[2] / t[1] : null);
function toolText(t) {
  if (!t) return 'no tools';
  return 'called ' + pct(calledRate(t)) + ' (' + t[1] + '/' + t[0] + '), valid ' +
    (t[1] ? pct(validRate(t)) + ' (' + t[2] + '/' + t[1] + ')' : '– (no call)');
}
const toolCounts = (t) => (t ? 'called ' + t[1] + '/' + t[0] + ' · valid ' + (t[1] ? t[2] + '/' + t[1] : '–') : 'no tools');
// counts: one entry per night, null when the suite or case ran no tools that night.
function toolChart(counts, events) {
  return chart('tool calls', [counts.map(calledRate), counts.map(validRate)], events, pct,
    (i) => toolCounts(counts[i]), 1, ['called', 'valid']);
}

// A night's conversation counts [samples, steps, within max_steps]: the requests per
// conversation, and the rate of conversations that finished within max_steps. A chart's
// read-out says the counts (its axis gives the rate).
const stepsPer = (l) => (l && l[0] ? l[1] / l[0] : null);
const withinRate = (l) => (l && l[0] ? l[2] / l[0] : null);
const stepsText = (l) => (l ? num(stepsPer(l)) + ' (' + l[1] + ' over ' + l[0] + (l[0] === 1 ? ' sample)' : ' samples)') : 'no conversation');
const withinText = (l) => (l ? pct(withinRate(l)) + ' (' + l[2] + '/' + l[0] + ')' : 'no conversation');
// A night's time to first token: a suite's [median of its streamed cases' medians (ms), how
// many were streamed], a case's median ms; null on a night nothing was streamed.
const ttftText = (t) => (t === null || t === undefined ? 'not streamed' : Array.isArray(t)
  ? num(t[0]) + ' ms (' + t[1] + ' streamed)'
  : num(t) + ' ms');
function ttftChart(values, events) {
  return chart('time to first token p50 (ms)', [values.map((t) => (t === null ? null : Array.isArray(t) ? t[0] : t))],
    events, num, (i) => ttftText(values[i]));
}
// counts: one entry per night, null when the suite or case held no conversation that night.
function loopCharts(counts, events) {
  return [
    chart('steps per conversation', [counts.map(stepsPer)], events, num, (i) => stepsText(counts[i])),
    chart('within max_steps', [counts.map(withinRate)], events, pct, (i) => withinText(counts[i]), 1),
  ];
}
`;
