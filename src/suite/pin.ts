import { isScalar, parseDocument } from 'yaml';
import { isAlias } from './alias.js';

export interface PinChange {
  /** 1-based line of the `model:` value. */
  line: number;
  alias: string;
  concrete: string;
}

/** The suite's `model:` when it is a `~author/family-latest` alias, else null. */
export function findSuiteAlias(text: string): string | null {
  const node = parseDocument(text).get('model', true);
  return isScalar(node) && typeof node.value === 'string' && isAlias(node.value) ? node.value : null;
}

/**
 * Rewrites a suite's `~author/family-latest` model to the concrete id it resolves to,
 * keeping every comment, blank line and the rest of the formatting (yaml's Document API).
 * Pure: the caller resolves aliases and writes the file.
 */
export function pinSuiteText(
  text: string,
  resolve: (alias: string) => string | undefined,
): { text: string; changes: PinChange[]; unresolved: string[] } {
  const doc = parseDocument(text, { keepSourceTokens: true });
  const node = doc.get('model', true);
  if (!isScalar(node) || typeof node.value !== 'string' || !isAlias(node.value)) {
    return { text, changes: [], unresolved: [] };
  }
  const alias = node.value;
  const concrete = resolve(alias);
  if (!concrete) return { text, changes: [], unresolved: [alias] };
  const [start, end] = node.range ?? [0, 0];
  // Splice the value in place rather than re-serialising the document: comments,
  // quoting style elsewhere and key order stay byte for byte as the author wrote them.
  const quoted =
    node.type === 'QUOTE_DOUBLE'
      ? JSON.stringify(concrete)
      : node.type === 'QUOTE_SINGLE'
        ? `'${concrete}'`
        : concrete;
  const line = text.slice(0, start).split('\n').length;
  return {
    text: text.slice(0, start) + quoted + text.slice(end),
    changes: [{ line, alias, concrete }],
    unresolved: [],
  };
}
