import type { Position } from './locate.js';

/**
 * Where a suite's `suite:` value and each of its cases start, found by scanning the raw
 * lines — what a successfully read suite keeps (`location`) for later messages, without
 * a position tree. It reads only the layout people write: top-level `suite: name` and
 * `cases:` keys, and one block list of cases under `cases:`. On any other layout it
 * returns null and the caller takes positions from the full path (`yaml`). The caller
 * checks the count against the data; the loader fuzz test holds every answer to the
 * full path's.
 */
export interface SuiteLayout {
  suite: Position;
  /** The top-level `service:` value, when the suite names one on its own line. */
  service: Position | null;
  cases: Position[];
}

export function scanSuiteLayout(source: string): SuiteLayout | null {
  const lines = source.split('\n');
  let suite: Position | null = null;
  let service: Position | null = null;
  let casesLine = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('suite:')) {
      if (suite || !/^suite:(?:[ \t\r]|$)/.test(line)) return null;
      const at = firstContent(line, 'suite:'.length);
      if (at < 0) return null;
      suite = { line: i + 1, column: at + 1 };
    } else if (line.startsWith('service:')) {
      const at = firstContent(line, 'service:'.length);
      if (service || at < 0) return null;
      service = { line: i + 1, column: at + 1 };
    } else if (line.startsWith('cases:')) {
      if (casesLine >= 0 || firstContent(line, 'cases:'.length) >= 0) return null;
      casesLine = i;
    }
  }
  if (!suite || casesLine < 0) return null;
  const cases: Position[] = [];
  let indent = -1;
  for (let i = casesLine + 1; i < lines.length; i++) {
    const line = lines[i]!;
    const start = firstContent(line, 0);
    if (start < 0) continue; // blank or comment only
    if (line.slice(0, start).includes('\t')) return null;
    if (indent < 0) indent = start;
    if (start < indent) break;
    if (start > indent) continue; // inside a case
    if (line[start] !== '-') {
      if (indent === 0) break; // the next top-level key
      return null;
    }
    if (line[start + 1] !== ' ') return null;
    const item = firstContent(line, start + 1);
    if (item < 0 || '-[?|>'.includes(line[item]!)) return null;
    cases.push({ line: i + 1, column: item + 1 });
  }
  return { suite, service, cases };
}

/** Index of the first character after `from` that is neither blank nor a comment; -1 if none. */
function firstContent(line: string, from: number): number {
  for (let i = from; i < line.length; i++) {
    const c = line[i]!;
    if (c === '#') return i === 0 || line[i - 1] === ' ' || line[i - 1] === '\t' ? -1 : i;
    if (c !== ' ' && c !== '\t' && c !== '\r') return i;
  }
  return -1;
}
