import type { Document, LineCounter, Node, Pair } from 'yaml';
import { yamlLibrary } from '../util/lazy.js';

export interface Position {
  line: number;
  column: number;
}

/** Splits an ajv `instancePath` (a JSON Pointer such as `/cases/0/expect`) into segments. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Escapes a key for use as one JSON Pointer segment. */
export function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `/cases/0/expect/1` → `cases[0].expect[1]`, the way people name a spot in YAML. */
export function describePointer(pointer: string): string {
  let out = '';
  for (const s of pointerSegments(pointer)) out += /^\d+$/.test(s) ? `[${s}]` : out ? `.${s}` : s;
  return out;
}

/**
 * Finds where the value at `pointer` sits in the source — or, with `key: true`, where
 * its key sits (unknown keys are reported at the key). When the path cannot be walked
 * to the end (a merged key, an alias), the deepest node reached is used.
 */
export function locate(
  doc: Document,
  lineCounter: LineCounter,
  pointer: string,
  options?: { key?: boolean },
): Position {
  const { isAlias, isCollection, isMap } = yamlLibrary();
  let node: Node | null = doc.contents as Node | null;
  let reached: Node | null = node;
  let lastPair: Pair | undefined;
  for (const segment of pointerSegments(pointer)) {
    lastPair = undefined;
    if (node && isAlias(node)) node = (node.resolve(doc) as Node | undefined) ?? null;
    if (!node || !isCollection(node)) break;
    let next: Node | null = null;
    if (isMap(node)) {
      const pair = node.items.find((p) => keyText(p.key) === segment);
      if (pair) {
        lastPair = pair as Pair;
        next = (pair.value as Node | null) ?? null;
        // An empty value (`expect:`) has no text of its own: point at the key instead.
        reached = next && !isEmptyScalar(next) ? next : (pair.key as Node);
      }
    } else {
      const item = node.items[Number(segment)];
      next = (item as Node | undefined) ?? null;
      if (next) reached = next;
    }
    if (!next && !lastPair) break;
    node = next;
  }
  const target = options?.key && lastPair ? (lastPair.key as Node) : reached;
  return positionOf(target, lineCounter);
}

/** The 1-based line and column where a node starts (1:1 when it has no range). */
export function positionOf(node: Node | null | undefined, lineCounter: LineCounter): Position {
  const offset = node?.range?.[0] ?? 0;
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

function keyText(key: unknown): string | undefined {
  const { isScalar } = yamlLibrary();
  if (isScalar(key)) return String(key.value);
  if (typeof key === 'string' || typeof key === 'number') return String(key);
  return undefined;
}

function isEmptyScalar(node: Node): boolean {
  const { isScalar } = yamlLibrary();
  return isScalar(node) && node.value === null && node.range?.[0] === node.range?.[1];
}
