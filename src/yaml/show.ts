import type { Diagnostic } from '../util/errors.js';
import { compareText } from '../util/compare-text.js';

/** `sk-…` keys, or a long unbroken run of mixed-case letters and digits (how keys look). */
function looksSecret(value: string): boolean {
  if (/sk-[A-Za-z0-9_-]{8,}/.test(value)) return true;
  return (value.match(/[A-Za-z0-9_-]{32,}/g) ?? []).some(
    (run) => /\d/.test(run) && /[a-z]/.test(run) && /[A-Z]/.test(run),
  );
}

/**
 * Quotes a user-written value for a message: short, single-line, and never a string
 * that looks like an API key (error messages end up in CI logs).
 */
export function show(value: unknown): string {
  if (typeof value === 'string') {
    if (looksSecret(value)) return '(a value that looks like a secret — not shown)';
    const oneLine = value.replace(/\s+/g, ' ');
    return `'${oneLine.length > 40 ? `${oneLine.slice(0, 39)}…` : oneLine}'`;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return kindOf(value);
}

/** Names a JSON value's kind the way YAML authors think of it. */
export function kindOf(value: unknown): string {
  if (value === null || value === undefined) return 'nothing (an empty value)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'number') {
    // JSON Schema's number excludes YAML's .inf and .nan; "must be a number, got a number" helps nobody.
    if (Number.isNaN(value)) return 'not-a-number (.nan)';
    if (!Number.isFinite(value)) return 'infinity (.inf)';
    return Number.isInteger(value) ? 'an integer' : 'a number';
  }
  return `a ${typeof value}`;
}

/** A JSON Schema type name as YAML authors say it: object → a mapping. */
export function typeInWords(type: string): string {
  const words: Record<string, string> = {
    object: 'a mapping',
    array: 'a list',
    string: 'text',
    integer: 'an integer',
    number: 'a number',
    boolean: 'true or false',
    null: 'empty',
  };
  return words[type] ?? type;
}

/** Sorts diagnostics by position and drops exact duplicates (two checks finding one problem). */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return [...list]
    .sort((a, b) => compareText(a.file, b.file) || a.line - b.line || a.column - b.column)
    .filter((d) => {
      const id = `${d.file}\u0000${d.line}\u0000${d.column}\u0000${d.message}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
}
