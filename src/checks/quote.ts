import { printable } from '../util/printable.js';

/** Longest quoted excerpt of model output in a check message; longer text is cut with an ellipsis. */
const MAX_QUOTE = 80;

/**
 * Quotes text for a one-line check message: JSON-escaped (so newlines stay on one line),
 * with the controls JSON leaves as they are (DEL, C1) escaped too, and truncated.
 */
export function quote(text: string, max: number = MAX_QUOTE): string {
  const chars = Array.from(text);
  const cut = chars.length > max ? `${chars.slice(0, max).join('')}…` : text;
  return printable(JSON.stringify(cut));
}

/** A short excerpt of `text` around `index`, for "found here" messages. */
export function excerptAround(text: string, index: number, length: number, max: number = MAX_QUOTE): string {
  const pad = Math.max(0, Math.floor((max - length) / 2));
  const start = Math.max(0, index - pad);
  const end = Math.min(text.length, index + length + pad);
  const body = text.slice(start, end);
  return `${start > 0 ? '…' : ''}${quote(body, max)}${end < text.length ? '…' : ''}`;
}
