/**
 * How a page says that a box scrolls sideways: a table (or canvas) wider than its `.scroll`
 * box — a phone's screen — scrolls inside it, and the box is marked `data-scroll` (right,
 * left or both: where more of it lies; SCROLL_STYLE shadows that edge) with a line above it
 * saying so. Marked again when the box or its content changes size and when it is scrolled.
 * report.html, compare.html and the trend page embed both (one copy); the script needs the
 * page's `el`.
 */
export const SCROLL_SCRIPT = String.raw`
function markScroll(box) {
  const room = box.scrollWidth - box.clientWidth;
  const at = box.scrollLeft;
  box.dataset.scroll = room <= 1 ? '' : at <= 1 ? 'right' : at >= room - 1 ? 'left' : 'both';
  const hint = box.previousElementSibling;
  if (hint && hint.classList.contains('scroll-hint')) hint.hidden = room <= 1;
}
function watchScroll(box) {
  if (box.dataset.watched) return;
  box.dataset.watched = 'true';
  const hint = el('p', 'scroll-hint', 'scroll sideways for more →');
  hint.hidden = true;
  box.before(hint);
  box.addEventListener('scroll', function () { markScroll(box); }, { passive: true });
  const sizes = new ResizeObserver(function () { markScroll(box); });
  sizes.observe(box);
  if (box.firstElementChild) sizes.observe(box.firstElementChild);
  markScroll(box);
}
document.querySelectorAll('.scroll').forEach(watchScroll);
`;

/** The scroll boxes' part of a page's stylesheet: their cells on one line, the marked edge's shadow, the hint line. */
export const SCROLL_STYLE = `
.scroll { overflow-x: auto; }
.scroll > table { width: max-content; min-width: 100%; }
.scroll > table th, .scroll > table td { white-space: nowrap; }
.scroll[data-scroll="right"] { box-shadow: inset -16px 0 12px -12px rgb(0 0 0 / 40%); }
.scroll[data-scroll="left"] { box-shadow: inset 16px 0 12px -12px rgb(0 0 0 / 40%); }
.scroll[data-scroll="both"] { box-shadow: inset -16px 0 12px -12px rgb(0 0 0 / 40%), inset 16px 0 12px -12px rgb(0 0 0 / 40%); }
.scroll-hint { margin: 6px 0 2px; font-size: 12px; color: var(--muted); text-align: right; }
.scroll-hint[hidden] { display: none; }
`;
