export { renderHtml } from './render.js';
