import { SCROLL_STYLE } from './scroll.js';

/** The page's only stylesheet, inlined and allowed by its CSP hash. Light and dark follow the system. */
export const STYLE = `
:root {
  color-scheme: light dark;
  --bg: #f7f7f8; --panel: #ffffff; --text: #1d1f23; --muted: #6a6f78; --line: #e1e3e8;
  --ok: #1a7f37; --ok-bg: #dcf5e3; --bad: #c4262e; --bad-bg: #fde3e3; --warn: #9a6700; --warn-bg: #fff1c7;
  --info-bg: #eef0f3; --ins: #c9f2d3; --del: #ffd3d3; --accent: #2f5fd0;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #111317; --panel: #1a1d22; --text: #e6e8eb; --muted: #9aa1ab; --line: #2d3138;
    --ok: #5cc97b; --ok-bg: #15361f; --bad: #ff7b7b; --bad-bg: #44191b; --warn: #e3b341; --warn-bg: #3b2f0f;
    --info-bg: #252930; --ins: #1d4a2a; --del: #5a2226; --accent: #7aa2ff;
  }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--text); font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
code, pre { font-family: var(--mono); font-size: 13px; }
code { overflow-wrap: anywhere; }
.muted { color: var(--muted); }
.bad { color: var(--bad); } .warn { color: var(--warn); } .ok { color: var(--ok); }
.bar { position: sticky; top: 0; z-index: 2; background: var(--panel); border-bottom: 1px solid var(--line); padding: 10px 16px; display: grid; grid-template-columns: minmax(0, 1fr); gap: 8px; box-shadow: 0 1px 4px rgb(0 0 0 / 6%); }
.verdict { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 12px; }
.verdict .word { font-weight: 700; font-size: 18px; padding: 1px 10px; border-radius: 6px; }
.verdict.ok .word { background: var(--ok-bg); color: var(--ok); }
.verdict.bad .word { background: var(--bad-bg); color: var(--bad); }
.verdict.warn .word { background: var(--warn-bg); color: var(--warn); }
.verdict .title { font-weight: 600; }
.verdict .why { color: var(--muted); font-size: 13px; }
.views { display: flex; flex-wrap: wrap; gap: 6px; }
button { font: inherit; color: inherit; cursor: pointer; }
.view, .mode, #more { border: 1px solid var(--line); background: var(--bg); border-radius: 999px; padding: 3px 11px; font-size: 13px; }
.view b { font-variant-numeric: tabular-nums; }
.view.bad b { color: var(--bad); } .view.warn b { color: var(--warn); } .view.ok b { color: var(--ok); } .view.muted b { color: var(--muted); }
.view[aria-pressed="true"], .mode[aria-pressed="true"] { background: var(--text); color: var(--bg); border-color: var(--text); }
.view[aria-pressed="true"] b { color: inherit; }
.tools { display: flex; gap: 8px; }
.tools input, .tools select { font: inherit; font-size: 14px; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 5px 8px; min-width: 0; }
.tools input { flex: 1 1 12rem; } .tools select { flex: 0 1 14rem; }
main { max-width: 72rem; margin: 0 auto; padding: 12px 16px 48px; }
.run { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; margin-bottom: 14px; }
.run dl { display: grid; grid-template-columns: max-content 1fr; gap: 3px 14px; margin: 0 0 10px; }
.run dt { color: var(--muted); } .run dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
${SCROLL_STYLE}table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; padding: 4px 10px 4px 0; border-top: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 500; border-top: 0; }
.suite-drift { margin: 8px 0 0; padding-left: 18px; }
h2.sub { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 14px 0 4px; }
.notice { background: var(--warn-bg); border-radius: 8px; padding: 8px 12px; }
#count { color: var(--muted); font-size: 13px; margin: 4px 0 8px; }
.case { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; margin-bottom: 6px; }
.case > summary { display: grid; grid-template-columns: 5.5rem minmax(0, 1.2fr) auto minmax(0, 1fr); grid-template-areas: "badge id samples model" "badge reason reason reason"; gap: 2px 10px; align-items: baseline; padding: 8px 12px; cursor: pointer; list-style: none; }
/* The words the recorded fields put on a row (streamed), right after its id. */
.id-labels { grid-area: id; display: flex; flex-wrap: wrap; align-items: baseline; gap: 2px 6px; min-width: 0; }
.row-label { font-size: 11px; padding: 0 6px; border: 1px solid var(--line); border-radius: 4px; color: var(--muted); white-space: nowrap; }
.partial { margin: 0 0 6px; font-size: 13px; }
/* A repeated case's passing samples (5/10), on the case's own line beside its id. */
.case > summary .samples { grid-area: samples; font-size: 13px; color: var(--muted); font-variant-numeric: tabular-nums; white-space: nowrap; }
.case > summary .since { grid-column: 2 / -1; font-size: 12px; color: var(--muted); }
.case > summary::-webkit-details-marker { display: none; }
.case > summary:focus-visible { outline: 2px solid var(--accent); outline-offset: -2px; }
.case[open] > summary { border-bottom: 1px solid var(--line); }
.badge { grid-area: badge; justify-self: start; white-space: nowrap; font-size: 12px; font-weight: 600; padding: 1px 8px; border-radius: 999px; background: var(--info-bg); color: var(--muted); }
.badge.bad { background: var(--bad-bg); color: var(--bad); } .badge.warn { background: var(--warn-bg); color: var(--warn); } .badge.ok { background: var(--ok-bg); color: var(--ok); }
.id { grid-area: id; font-family: var(--mono); font-size: 13px; font-weight: 600; overflow-wrap: anywhere; }
.model { grid-area: model; color: var(--muted); font-size: 13px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; text-align: right; }
.reason { grid-area: reason; color: var(--muted); font-size: 13px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.detail { padding: 4px 14px 14px; }
.part h3 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 14px 0 6px; }
h4 { font-size: 12px; color: var(--muted); margin: 0 0 4px; font-weight: 600; }
.msg { margin-bottom: 6px; }
.role { font-size: 12px; color: var(--muted); font-family: var(--mono); }
pre.text { margin: 2px 0 0; padding: 8px 10px; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 32rem; overflow-y: auto; }
.checks, .drift { list-style: none; margin: 0; padding: 0; }
.checks li, .drift li { padding: 2px 0; overflow-wrap: anywhere; color: var(--text); }
.checks .mark { display: inline-block; width: 1.3em; font-weight: 700; }
.checks li.ok .mark { color: var(--ok); } .checks li.bad .mark { color: var(--bad); }
.checks b, .drift b { font-family: var(--mono); font-size: 13px; }
.drift .badge { margin-right: 6px; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 0; font-size: 14px; }
dl.meta dt { color: var(--muted); } dl.meta dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.difftools { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin-bottom: 6px; }
.legend { margin-left: auto; font-size: 12px; }
ins { background: var(--ins); text-decoration: none; border-radius: 2px; }
del { background: var(--del); text-decoration: line-through; text-decoration-color: var(--bad); border-radius: 2px; }
.split { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; }
/* A conversation's transcript: turns of requests, each request's calls (→) and the results given (←). */
.transcript { display: grid; gap: 8px; min-width: 0; align-content: start; }
.turn { display: grid; gap: 6px; }
.turn + .turn { border-top: 1px dashed var(--line); padding-top: 8px; }
.turn .msg { margin: 0; } .turn .msg p { margin: 2px 0 0; }
.step { border: 1px solid var(--line); border-left: 3px solid var(--accent); border-radius: 6px; padding: 5px 10px 6px; background: var(--bg); min-width: 0; }
.step.changed { border-left-color: var(--warn); } .step.bad { border-left-color: var(--bad); }
.step-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 2px 8px; font-size: 13px; margin-bottom: 2px; }
.step-head .muted { overflow-wrap: anywhere; }
.call { display: grid; grid-template-columns: 1.1em minmax(0, 1fr); gap: 0 4px; align-items: baseline; }
.call .dir { color: var(--muted); font-family: var(--mono); font-size: 13px; }
.io { margin: 1px 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 16rem; overflow-y: auto; font-size: 13px; }
p.io { font-size: 13px; }
.stopped { margin: 0; font-size: 14px; overflow-wrap: anywhere; }
.sides { align-items: start; }
.note { background: var(--warn-bg); padding: 6px 10px; border-radius: 6px; font-size: 13px; }
#more { display: block; margin: 12px auto; padding: 6px 16px; }
#more[hidden] { display: none; }
@media (max-width: 40rem) {
  body { font-size: 14px; }
  .bar { padding: 8px 10px; gap: 6px; }
  main { padding: 10px 8px 40px; }
  .verdict { flex-wrap: nowrap; }
  .verdict .word { font-size: 15px; padding: 0 8px; }
  .verdict .title { font-size: 14px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
  .verdict .why { display: none; }
  .views { gap: 4px; } .view { padding: 2px 8px; font-size: 12px; }
  .tools input { flex-basis: 55%; } .tools select { flex: 1 1 45%; font-size: 13px; }
  .case > summary { grid-template-columns: auto minmax(0, 1fr) auto; grid-template-areas: "badge id samples" "model model model" "reason reason reason"; padding: 8px 10px; }
  .model { text-align: left; }
  .split { grid-template-columns: 1fr; }
  .detail { padding: 2px 10px 12px; }
  .run dl, dl.meta { grid-template-columns: 1fr; gap: 0; } .run dd, dl.meta dd { margin-bottom: 6px; }
}
`;
