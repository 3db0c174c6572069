import { stringWidthLibrary } from '../util/lazy.js';

/**
 * Printable ASCII and the marks driftcheck's own messages use (· → … — – ✓ ✗ ≤ ≥ ± × ÷ −):
 * one column a character, as string-width counts each (test/report/terminal.test.ts).
 */
const PLAIN = /^[\x20-\x7e·→…—–✓✗≤≥±×÷−]*$/;

/**
 * Columns a text takes in a terminal (wide characters count two, escapes none): string-width's
 * count, which plain ASCII text does not need it for (stringWidthLibrary: ~20 ms to load).
 */
export const width = (text: string): number => (PLAIN.test(text) ? text.length : stringWidthLibrary()(text));

/** The text cut to `columns` terminal columns, with an ellipsis when it was longer. */
export function truncate(text: string, columns: number): string {
  if (width(text) <= columns) return text;
  let out = '';
  for (const ch of text) {
    if (width(`${out}${ch}`) > columns - 1) break;
    out += ch;
  }
  return `${out}…`;
}

/** The text broken into lines of at most `columns` (at spaces where it can), each after `indent`. */
export function wrap(text: string, columns: number, indent = ''): string[] {
  const room = Math.max(10, columns - width(indent));
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (width(next) <= room) {
      line = next;
      continue;
    }
    if (line) lines.push(line);
    line = word;
    // A word longer than the room is cut into pieces.
    while (width(line) > room) {
      const head = truncate(line, room + 1).slice(0, -1);
      lines.push(head);
      line = line.slice(head.length);
    }
  }
  if (line) lines.push(line);
  return lines.map((l) => `${indent}${l}`);
}

/**
 * Items joined by `separator` and broken into lines only between items, so a label stays
 * with its value (`cost $0.0000372`, never `cost` at the end of a line and the sum below).
 * An item wider than a line is wrapped on its own.
 */
export function wrapItems(items: readonly string[], columns: number, separator = ' · '): string[] {
  const lines: string[] = [];
  const mark = separator.trimEnd();
  let line = '';
  items.forEach((item, i) => {
    const next = line ? `${line}${separator}${item}` : item;
    // Room is kept for the mark that ends a line when more items follow it.
    if (width(next) + (i < items.length - 1 ? width(mark) : 0) <= columns) {
      line = next;
      return;
    }
    if (line) lines.push(`${line}${mark}`);
    if (width(item) + width(mark) <= columns) line = item;
    else {
      const pieces = wrap(item, columns - width(mark));
      line = pieces.pop() ?? '';
      lines.push(...pieces);
    }
  });
  if (line) lines.push(line);
  return lines;
}

/**
 * A message fitted to a terminal `columns` wide: each line that would overflow is wrapped
 * at spaces, its continuation lines indented under it. Lines that fit (the progress line
 * redrawn in place among them) pass through unchanged.
 */
export function fitToTerminal(text: string, columns: number): string {
  return text
    .split('\n')
    .map((line) => {
      if (width(line) <= columns) return line;
      const lead = /^ */.exec(line)![0];
      const [first, ...rest] = wrap(line, columns - lead.length - 2);
      return [`${lead}${first}`, ...rest.map((l) => `${lead}  ${l}`)].join('\n');
    })
    .join('\n');
}
