/** The index page's only stylesheet, inlined and allowed by its CSP hash. Light and dark follow the system. */
export const INDEX_STYLE = `
:root {
  color-scheme: light dark;
  --bg: #f7f7f8; --panel: #ffffff; --text: #1d1f23; --muted: #6a6f78; --line: #e1e3e8;
  --ok: #1a7f37; --ok-bg: #dcf5e3; --bad: #c4262e; --bad-bg: #fde3e3; --warn: #9a6700; --warn-bg: #fff1c7;
  --info-bg: #eef0f3; --accent: #2f5fd0;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #111317; --panel: #1a1d22; --text: #e6e8eb; --muted: #9aa1ab; --line: #2d3138;
    --ok: #5cc97b; --ok-bg: #15361f; --bad: #ff7b7b; --bad-bg: #44191b; --warn: #e3b341; --warn-bg: #3b2f0f;
    --info-bg: #252930; --accent: #7aa2ff;
  }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--text); font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
a { color: var(--accent); }
code { font-family: var(--mono); font-size: 13px; overflow-wrap: anywhere; }
.muted { color: var(--muted); }
header.bar { background: var(--panel); border-bottom: 1px solid var(--line); padding: 12px 16px; }
header.bar h1 { font-size: 20px; margin: 0; }
header.bar p { margin: 2px 0 0; font-size: 13px; }
main { max-width: 72rem; margin: 0 auto; padding: 12px 16px 48px; }
h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 20px 0 8px; }
ol, ul { list-style: none; margin: 0; padding: 0; }
.item { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; margin-bottom: 8px;
  display: grid; grid-template-columns: 7.5rem minmax(0, 1.1fr) minmax(0, 1.4fr) auto; grid-template-areas: "verdict run counts links" "verdict run suites links"; gap: 2px 16px; align-items: baseline; }
.verdict { grid-area: verdict; justify-self: start; font-weight: 700; font-size: 13px; padding: 1px 9px; border-radius: 6px; background: var(--info-bg); color: var(--muted); white-space: nowrap; }
.verdict.ok { background: var(--ok-bg); color: var(--ok); } .verdict.bad { background: var(--bad-bg); color: var(--bad); } .verdict.warn { background: var(--warn-bg); color: var(--warn); }
.run { grid-area: run; min-width: 0; }
.run .id { font-family: var(--mono); font-size: 13px; overflow-wrap: anywhere; }
.run time, .run .tags { display: block; font-size: 13px; color: var(--muted); }
.counts { grid-area: counts; font-size: 14px; font-variant-numeric: tabular-nums; }
.counts .n { white-space: nowrap; }
.counts { overflow-wrap: anywhere; }
.counts .bad { color: var(--bad); } .counts .warn { color: var(--warn); }
.suites { grid-area: suites; font-size: 13px; color: var(--muted); overflow-wrap: anywhere; }
.links { grid-area: links; display: flex; flex-wrap: wrap; gap: 2px 12px; font-size: 14px; justify-self: end; }
.problem { grid-area: counts / counts / suites / suites; font-size: 13px; color: var(--warn); overflow-wrap: anywhere; }
.empty { background: var(--panel); border: 1px dashed var(--line); border-radius: 8px; padding: 14px; }
.pages .item { grid-template-areas: "verdict run"; grid-template-columns: 7.5rem minmax(0, 1fr); }
@media (max-width: 720px) {
  .item { grid-template-columns: minmax(0, 1fr); grid-template-areas: "verdict" "run" "counts" "suites" "links"; gap: 4px; }
  .problem { grid-area: auto; }
  .pages .item { grid-template-areas: "verdict" "run"; grid-template-columns: minmax(0, 1fr); }
  .links { justify-self: start; }
}
`;
