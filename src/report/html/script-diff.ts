/**
 * How a word diff (wordDiff's runs) is drawn: `inline`, deletions and insertions in one
 * text, or `split`, the two texts side by side. Function declarations only, using the
 * page's own `el`: report.html and compare.html both embed them (one copy of the drawing).
 */
export const DIFF_SCRIPT = String.raw`
function inline(ops) {
  const pre = el('pre', 'text');
  ops.forEach(function (o) { pre.append(o[0] === 0 ? document.createTextNode(o[1]) : el(o[0] < 0 ? 'del' : 'ins', null, o[1])); });
  return pre;
}
function split(ops) {
  const wrap = el('div', 'split');
  const left = el('pre', 'text');
  const right = el('pre', 'text');
  ops.forEach(function (o) {
    if (o[0] <= 0) left.append(o[0] === 0 ? document.createTextNode(o[1]) : el('del', null, o[1]));
    if (o[0] >= 0) right.append(o[0] === 0 ? document.createTextNode(o[1]) : el('ins', null, o[1]));
  });
  const l = el('div', 'side');
  l.append(el('h4', null, 'baseline'), left);
  const r = el('div', 'side');
  r.append(el('h4', null, 'current'), right);
  wrap.append(l, r);
  return wrap;
}
`;
