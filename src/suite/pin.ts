import { type Document, isMap, isScalar, parseDocument } from 'yaml';
import { isAlias } from '../adapters/alias.js';

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

/**
 * The provider slug routing preferences take for the name a reply reports ("Amazon
 * Bedrock" → `amazon-bedrock`): the router's slugs are its lower-cased, hyphenated names.
 */
export function providerSlug(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, '-');
}

/**
 * Adds `params.provider: { only: [slug], allow_fallbacks: false }` to a suite, keeping every
 * comment and the rest of the layout: a block `params:` gets one more line, a flow one one
 * more entry, and a suite without params gets the block before `cases:`. Returns the new
 * text and the 1-based line written, or null when the suite already pins a provider.
 */
export function pinProviderText(
  text: string,
  slug: string,
): { text: string; line: number } | { problem: string } | null {
  const doc = parseDocument(text, { keepSourceTokens: true });
  if (doc.hasIn(['params', 'provider'])) return null;
  const value = `{ only: [${JSON.stringify(slug)}], allow_fallbacks: false }`;
  const lineOf = (offset: number) => text.slice(0, offset).split('\n').length;
  const lineStart = (offset: number) => text.lastIndexOf('\n', offset - 1) + 1;
  const params = doc.get('params', true);
  if (isMap(params) && params.flow) {
    const [start, end] = params.range ?? [0, 0];
    const inner = params.items.length === 0 ? `{ provider: ${value} }` : null;
    const out = inner
      ? text.slice(0, start) + inner + text.slice(end)
      : `${text.slice(0, start + 1)} provider: ${value},${text.slice(start + 1)}`;
    return { text: out, line: lineOf(start) };
  }
  if (isMap(params) && params.items.length > 0) {
    const first = params.items[0]!.key;
    const at = lineStart(isScalar(first) ? (first.range?.[0] ?? 0) : 0);
    const indent = /^[ \t]*/.exec(text.slice(at))![0];
    return { text: `${text.slice(0, at)}${indent}provider: ${value}\n${text.slice(at)}`, line: lineOf(at) };
  }
  const block = `params:\n  provider: ${value}\n`;
  if (params !== undefined && !(isScalar(params) && params.value === null) && !isMap(params))
    return { problem: '`params` is not a mapping; fix the suite (driftcheck validate) and pin again' };
  if (isScalar(params)) {
    // `params:` with nothing under it: replace that line.
    const at = lineStart(topKeyOffset(doc, 'params') ?? 0);
    const next = text.indexOf('\n', at);
    return { text: text.slice(0, at) + block + (next < 0 ? '' : text.slice(next + 1)), line: lineOf(at) + 1 };
  }
  const casesStart = topKeyOffset(doc, 'cases');
  if (casesStart === undefined) {
    const sep = text.endsWith('\n') || text === '' ? '' : '\n';
    return { text: text + sep + block, line: lineOf(text.length) + (sep ? 2 : 1) };
  }
  const at = lineStart(casesStart);
  return { text: text.slice(0, at) + block + text.slice(at), line: lineOf(at) + 1 };
}

/** Where a top-level key of the suite starts in its text. */
function topKeyOffset(doc: Document, key: string): number | undefined {
  if (!isMap(doc.contents)) return undefined;
  const pair = doc.contents.items.find((p) => isScalar(p.key) && p.key.value === key);
  return isScalar(pair?.key) ? pair.key.range?.[0] : undefined;
}
