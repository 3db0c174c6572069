import { SCROLL_STYLE } from '../../report/html/scroll.js';

/** The trend page's only stylesheet, allowed by its CSP hash. Light and dark follow the system. */
export const TREND_STYLE = `${SCROLL_STYLE}
:root {
  color-scheme: light dark;
  --bg: #f7f7f8; --panel: #ffffff; --text: #1d1f23; --muted: #6a6f78; --line: #e1e3e8;
  --ok: #1a7f37; --bad: #c4262e; --warn: #9a6700; --accent: #2f5fd0;
}
@media (prefers-color-scheme: dark) {
  :root { --bg: #111317; --panel: #1a1d22; --text: #e6e8eb; --muted: #9aa1ab; --line: #2d3138;
    --ok: #5cc97b; --bad: #ff7b7b; --warn: #e3b341; --accent: #7aa2ff; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 15px/1.45 system-ui, sans-serif; }
header { background: var(--panel); border-bottom: 1px solid var(--line); padding: 10px 16px; position: sticky; top: 0; z-index: 2; }
h1 { font-size: 18px; margin: 0 0 6px; }
h2 { font-size: 16px; margin: 18px 0 6px; }
main { padding: 8px 16px 40px; max-width: 1200px; margin: 0 auto; }
.muted { color: var(--muted); } .bad { color: var(--bad); } .warn { color: var(--warn); } .ok { color: var(--ok); }
.tools { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.tools input, .tools select { font: inherit; font-size: 14px; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 4px 8px; min-width: 0; max-width: 100%; }
button { font: inherit; color: inherit; cursor: pointer; }
.view, #more { border: 1px solid var(--line); background: var(--bg); border-radius: 999px; padding: 2px 10px; font-size: 13px; }
.view[aria-pressed="true"], .fact[aria-pressed="true"] { background: var(--text); color: var(--bg); border-color: var(--text); }
.view .n { font-weight: 700; font-variant-numeric: tabular-nums; }
/* Tonight (the newest night) at the top: what fails now, what started tonight, trends, new cases. */
#tonight { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; margin: 8px 0 12px; }
#tonight h2 { margin: 0 0 6px; font-size: 15px; overflow-wrap: anywhere; }
#tonight ul.facts { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 6px; }
.fact { border: 1px solid var(--line); background: var(--bg); border-radius: 999px; padding: 2px 10px; font-size: 13px; font-weight: 600; }
.fact.muted { font-weight: 400; }
#tonight p.named { margin: 6px 0 0; font-size: 13px; overflow-wrap: anywhere; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 10px; }
figure { margin: 0; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 6px 8px; min-width: 0; }
figcaption { font-size: 13px; color: var(--muted); }
/* Its own line, one line high: reading out a night never moves the page under the pointer. */
figcaption .readout { display: block; color: var(--text); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.plot { display: grid; grid-template-columns: auto 1fr; gap: 4px; margin-top: 4px; }
.y-axis { position: relative; min-width: 3.2em; font-size: 11px; color: var(--muted); text-align: right; }
.y-axis span { position: absolute; right: 0; transform: translateY(-50%); white-space: nowrap; }
.y-axis .at-top { top: 1%; } .y-axis .at-mid { top: 50%; } .y-axis .at-zero { top: 99%; }
.x-axis { display: flex; white-space: nowrap; overflow: hidden; justify-content: space-between; gap: 6px; font-size: 11px; color: var(--muted); margin-left: 3.6em; }
svg.chart { width: 100%; height: 80px; display: block; overflow: visible; }
svg.chart .grid { stroke: var(--line); vector-effect: non-scaling-stroke; }
svg.chart .cursor { stroke: var(--text); stroke-width: 1; vector-effect: non-scaling-stroke; }
svg.chart .line { fill: none; stroke: var(--accent); stroke-width: 1.5; vector-effect: non-scaling-stroke; }
svg.chart .line.alt { stroke: var(--warn); }
/* A series' name in its line's colour, for a chart of two (tool calls: called, valid). */
figcaption .key::before { content: ""; display: inline-block; width: 12px; height: 2px; margin: 0 4px 0 8px; vertical-align: middle; background: var(--accent); }
figcaption .key.alt::before { background: var(--warn); }
svg.chart .event { stroke: var(--muted); stroke-dasharray: 2 2; vector-effect: non-scaling-stroke; }
svg.chart .event.baseline_accepted { stroke: var(--ok); } svg.chart .event.paused { stroke: var(--bad); } svg.chart .event.forced { stroke: var(--warn); } svg.chart .event.latency_changed, svg.chart .event.ttft_changed { stroke: var(--warn); }
ul.events { font-size: 13px; padding-left: 18px; margin: 6px 0; }
.heat { overflow-x: auto; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 6px; }
.heat canvas { display: block; cursor: pointer; }
p.readout { min-height: 1.45em; font-size: 13px; margin: 4px 0; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid var(--line); vertical-align: top; }
td.id, td.id a { overflow-wrap: anywhere; }
/* The slow-drift column wraps: a scrolled table of it would be a screen wide. */
.scroll > table td.trend { white-space: normal; min-width: 16rem; }
a { color: var(--accent); }
#detail { background: var(--panel); border: 2px solid var(--accent); border-radius: 8px; padding: 8px 12px; margin: 10px 0; }
#detail ol { list-style: none; padding: 0; margin: 6px 0; max-height: 360px; overflow-y: auto; }
#detail li { display: flex; gap: 8px; flex-wrap: wrap; border-bottom: 1px solid var(--line); padding: 2px 0; font-size: 13px; }
.chip { font-weight: 600; font-family: ui-monospace, monospace; }
.notice { background: var(--panel); border-left: 3px solid var(--warn); padding: 6px 10px; }
`;
