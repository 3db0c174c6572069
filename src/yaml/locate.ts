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
 * Where the value at `pointer` is written in a `yaml` Document, as a 1-based position; with
 * `key: true`, its key (unknown keys are reported at the key). An empty value (`expect:`)
 * has no text of its own, so its key stands in. When the path cannot be walked to the end
 * (a merged key, an alias that does not resolve), the deepest node reached is used.
 */
export function locate(
  doc: Document,
  lineCounter: LineCounter,
  pointer: string,
  options?: { key?: boolean },
): Position {
  const { isAlias, isCollection, isMap } = yamlLibrary();
  let node = (doc.contents as Node | null) ?? null;
  let reached = node;
  let key: Node | null = null;
  for (const segment of pointerSegments(pointer)) {
    key = null;
    const at = node && isAlias(node) ? ((node.resolve(doc) as Node | undefined) ?? null) : node;
    if (!at || !isCollection(at)) break;
    let value: Node | null;
    if (isMap(at)) {
      const pair = at.items.find((p) => keyText(p.key) === segment) as Pair | undefined;
      if (!pair) break;
      key = pair.key as Node;
      value = (pair.value as Node | null) ?? null;
      reached = value !== null && !isEmptyScalar(value) ? value : key;
    } else {
      value = (at.items[Number(segment)] as Node | undefined) ?? null;
      if (!value) break;
      reached = value;
    }
    node = value;
  }
  return positionOf(options?.key && key !== null ? key : reached, lineCounter);
}

/** The 1-based line and column where a node starts (1:1 when it has no range). */
function positionOf(node: Node | null | undefined, lineCounter: LineCounter): Position {
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
