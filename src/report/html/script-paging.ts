/**
 * How a page lists the rows that pass its filter: PAGE at a time into its list, a "show
 * more" button and a count line. report.html and compare.html both embed it (one copy of
 * the paging); each page declares `PAGE`, `ALL` (every row), `LIST` (the element rows go
 * into), `more`, `count`, `COUNT_SUFFIX`, and the functions `row` and `keep`.
 */
export const PAGING_SCRIPT = String.raw`
let matches = [];
let shown = 0;
function showMore() {
  const end = Math.min(shown + PAGE, matches.length);
  const frag = document.createDocumentFragment();
  for (let i = shown; i < end; i++) frag.append(row(matches[i]));
  LIST.append(frag);
  shown = end;
  more.hidden = shown >= matches.length;
  more.textContent = 'show ' + Math.min(PAGE, matches.length - shown) + ' more of ' + (matches.length - shown);
  count.textContent = matches.length === 0 ? 'No case matches.' : 'Showing ' + shown + ' of ' + matches.length + (matches.length === ALL.length ? ' cases' : ' matching cases (' + ALL.length + ' in all)') + COUNT_SUFFIX;
}
function apply() {
  matches = ALL.filter(keep);
  shown = 0;
  LIST.replaceChildren();
  showMore();
}
`;
