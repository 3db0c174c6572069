import type { Document, Node } from 'yaml';
import { yamlLibrary } from '../util/lazy.js';

/** Deeper than any hand-written suite or JSON Schema needs; deeper data only exhausts the stack later. */
export const MAX_DEPTH = 64;

/** A node that does not map onto plain JSON data, with where it starts. */
export interface NonPlainNode {
  offset: number;
  message: string;
  hint: string;
}

const TYPE_NAMES: Record<string, string> = {
  'tag:yaml.org,2002:omap': '!!omap (an ordered map)',
  'tag:yaml.org,2002:pairs': '!!pairs',
  'tag:yaml.org,2002:set': '!!set',
  'tag:yaml.org,2002:binary': '!!binary',
  'tag:yaml.org,2002:timestamp': '!!timestamp',
};

/**
 * Finds what YAML can say but a suite or config cannot mean: ordered maps, sets, binary
 * and timestamp values (they would silently become `{}` or a Date), keys that are lists
 * or mappings, and nesting past MAX_DEPTH. Walks with an explicit stack, so hostile
 * depth cannot overflow it; aliases are not followed (their anchor is checked where it is).
 */
export function findNonPlainNodes(doc: Document.Parsed): NonPlainNode[] {
  const { isAlias, isCollection, isPair, isScalar } = yamlLibrary();
  const found: NonPlainNode[] = [];
  const stack: { node: unknown; depth: number }[] = [{ node: doc.contents, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (!node || isAlias(node)) continue;
    const offset = (node as Node).range?.[0] ?? 0;
    if (depth > MAX_DEPTH) {
      found.push({
        offset,
        message: `the data nests more than ${MAX_DEPTH} levels deep`,
        hint: 'flatten it; suites and configs are read by people',
      });
      continue; // one report per too-deep branch is enough
    }
    const tag = (node as Node).tag;
    const typeName = tag === undefined ? undefined : TYPE_NAMES[tag];
    if (typeName) {
      found.push({
        offset,
        message: `the YAML type ${typeName} is not supported here`,
        hint: 'remove the tag and write plain text, a list or a mapping',
      });
      continue;
    }
    if (isScalar(node)) {
      const what = scalarProblem(node.value);
      if (what) found.push({ offset, message: `${what} is not supported here`, hint: 'quote the value' });
      continue;
    }
    if (!isCollection(node)) continue;
    for (const item of node.items) {
      if (isPair(item)) {
        if (isCollection(item.key)) {
          found.push({
            offset: item.key.range?.[0] ?? offset,
            message: 'a key must be plain text, not a list or a mapping',
            hint: "write 'name: value' with a plain name; a '?' line starts a complex key",
          });
        } else stack.push({ node: item.key, depth: depth + 1 });
        stack.push({ node: item.value, depth: depth + 1 });
      } else stack.push({ node: item, depth: depth + 1 });
    }
  }
  return found.sort((a, b) => a.offset - b.offset);
}

/** Scalars YAML 1.1 resolves to non-JSON values (e.g. `2024-01-01` after `%YAML 1.1`). */
function scalarProblem(value: unknown): string | null {
  if (value instanceof Date) return 'a date/time value';
  if (value instanceof Uint8Array) return 'a binary value';
  if (typeof value === 'bigint') return 'a big integer';
  return null;
}
