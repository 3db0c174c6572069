export type { HtmlBaselineCase, HtmlBaselines } from './data.js';
export { type HtmlOptions, renderHtml, renderHtmlChunks } from './render.js';
export { wordDiff, type DiffOp } from './word-diff.js';
