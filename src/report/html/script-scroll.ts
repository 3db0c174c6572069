/**
 * How a page says that a box scrolls sideways: a table wider than its `.scroll` box (a
 * phone's screen) scrolls inside it, and the box is marked `data-scroll` (right, left or
 * both: where more of it lies) — the stylesheet shadows that edge — with a line above it
 * saying so. Marked again when the box or its table changes size and when it is scrolled.
 * report.html and compare.html both embed it (one copy); it needs the page's `el`.
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
