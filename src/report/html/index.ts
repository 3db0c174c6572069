export { type HtmlOptions, htmlReporter, renderHtml } from './render.js';
export { type PageCase, pageCase } from './data.js';
export { wordDiff, type DiffOp } from './word-diff.js';
