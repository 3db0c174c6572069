/**
 * C0 controls but tab and newline (a lone carriage return included: it rewrites the line
 * it ends), DEL, and the C1 controls (U+0080–U+009F: U+009B alone starts a CSI sequence).
 */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/g;

/**
 * Text from a service or a file, made safe to show: each control character written as its
 * `\u00XX` escape, so an answer, an error message or a suite value cannot retitle, clear
 * or rewrite the terminal it is printed on. The one escaping rule for what driftcheck
 * shows; idempotent (what it returns holds no control character).
 */
export function printable(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
