/**
 * compare.html's additions to report.html's stylesheet (STYLE, its colours and parts): the
 * cards, the chart, the matrix and the side-by-side panes. Both go into the page's one
 * style element, allowed by its hash.
 */
export const COMPARE_STYLE = `
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(22rem, 1fr)); gap: 10px; margin-bottom: 12px; }
.card { background: var(--panel); border: 1px solid var(--line); border-top: 4px solid var(--ok); border-radius: 8px; padding: 10px 12px; min-width: 0; }
.card.worse { border-top-color: var(--bad); }
.card p.verdict { margin: 0 0 8px; font-size: 13px; font-weight: 600; }
.card p.verdict.worse,
.card p.verdict.unserved { color: var(--bad); }
.card p.verdict.better { color: var(--ok); }
.card h2 { font-size: 15px; margin: 0 0 6px; font-family: var(--mono); overflow-wrap: anywhere; }
.card dl.meta { font-size: 13px; grid-template-columns: 10.5rem minmax(0, 1fr); }
.card dl.meta dt { overflow-wrap: anywhere; }
.star { color: var(--warn); }
.notes { margin: 0 0 12px; padding-left: 18px; font-size: 14px; }
.chart-box { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 4px 14px 10px; margin-bottom: 14px; }
.axis-pick { display: block; font-size: 13px; color: var(--muted); margin: 0 0 4px; }
.axis-pick select { font: inherit; color: var(--text); margin-left: 4px; }
/* Drawn by the script at its box's width (its viewBox in px); written at 560 px, shrunk to fit without script. */
#chart-box { width: 100%; }
#chart { display: block; max-width: 100%; height: auto; }
#chart .axis { stroke: var(--muted); }
#chart .grid { stroke: var(--line); }
#chart .tick, #chart .axis-title { fill: var(--muted); font-size: 11px; }
#chart .ci { stroke: var(--muted); stroke-width: 2; }
#chart .dot { fill: var(--accent); }
#chart .frontier .dot { fill: var(--ok); }
#chart .ring { fill: none; stroke: var(--ok); stroke-width: 2; }
#chart .label { fill: var(--text); font-size: 12px; }
#chart .frontier-line { fill: none; stroke: var(--ok); stroke-dasharray: 4 3; }
.matrix table { font-size: 13px; }
.matrix th, .matrix td { padding: 5px 10px 5px 0; white-space: nowrap; }
.matrix thead th { font-family: var(--mono); font-size: 12px; }
.matrix tbody th { font-weight: 400; }
/* The case column stays in view while the matrix scrolls sideways. */
.matrix th:first-child { position: sticky; left: 0; z-index: 1; background: var(--bg); }
.matrix tr.selected { background: var(--info-bg); }
button.open { border: 0; background: none; padding: 0; font-family: var(--mono); font-size: 13px; color: var(--accent); text-align: left; }
button.open:hover { text-decoration: underline; }
.samples { color: var(--muted); font-variant-numeric: tabular-nums; }
.change { font-size: 12px; font-weight: 600; }
.why { color: var(--muted); font-size: 12px; }
#detail { scroll-margin-top: 9rem; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 8px 14px 14px; margin-bottom: 14px; }
.detail-head { display: flex; align-items: center; justify-content: space-between; gap: 10px; }
.detail-head h2 { font-size: 15px; margin: 6px 0; overflow-wrap: anywhere; }
#detail .legend { margin: 0 0 8px; }
.panes { display: grid; grid-auto-flow: column; grid-auto-columns: minmax(16rem, 1fr); gap: 10px; overflow-x: auto; }
.pane { min-width: 0; }
.pane h3 { font-size: 13px; margin: 4px 0 6px; font-family: var(--mono); overflow-wrap: anywhere; }
.pane dl.meta { font-size: 12px; margin-bottom: 6px; }
.report-link { display: inline-block; margin-top: 6px; font-size: 12px; color: var(--accent); }
@media (max-width: 40rem) {
  .matrix tbody th { white-space: normal; min-width: 8rem; max-width: 10rem; }
  .matrix button.open { overflow-wrap: anywhere; }
  .panes { grid-auto-flow: row; grid-auto-columns: auto; }
  .cards { grid-template-columns: 1fr; }
}
`;
