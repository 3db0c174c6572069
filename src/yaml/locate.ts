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

/** One step of a pointer walk: the value under `segment`, and its key when `node` is a mapping. */
export type PointerStep<N> = (node: N, segment: string) => { value: N | null; key: N | null } | undefined;

/**
 * The rules both YAML readers locate by. Finds the node holding the value at `pointer`
 * or, with `key: true`, its key (unknown keys are reported at the key). An empty value
 * (`expect:`) has no text of its own, so its key stands in. When the path cannot be
 * walked to the end (a merged key, an alias), the deepest node reached is used.
 * `step` answers undefined when `node` is not a collection or has no such member.
 */
export function walkPointer<N>(
  root: N | null,
  pointer: string,
  step: PointerStep<N>,
  isEmpty: (node: N) => boolean,
  options?: { key?: boolean },
): N | null {
  let node = root;
  let reached = root;
  let key: N | null = null;
  for (const segment of pointerSegments(pointer)) {
    key = null;
    const hit = node === null ? undefined : step(node, segment);
    if (!hit) break;
    key = hit.key;
    if (hit.key !== null) reached = hit.value !== null && !isEmpty(hit.value) ? hit.value : hit.key;
    else if (hit.value !== null) reached = hit.value;
    if (hit.value === null && hit.key === null) break;
    node = hit.value;
  }
  return options?.key && key !== null ? key : reached;
}

/** `walkPointer` on a `yaml` Document (the full path), as a 1-based position. */
export function locate(
  doc: Document,
  lineCounter: LineCounter,
  pointer: string,
  options?: { key?: boolean },
): Position {
  const { isAlias, isCollection, isMap } = yamlLibrary();
  const step: PointerStep<Node> = (at, segment) => {
    const node = isAlias(at) ? ((at.resolve(doc) as Node | undefined) ?? null) : at;
    if (!node || !isCollection(node)) return undefined;
    if (isMap(node)) {
      const pair = node.items.find((p) => keyText(p.key) === segment) as Pair | undefined;
      return pair ? { value: (pair.value as Node | null) ?? null, key: pair.key as Node } : undefined;
    }
    const item = (node.items[Number(segment)] as Node | undefined) ?? null;
    return item ? { value: item, key: null } : undefined;
  };
  const target = walkPointer(doc.contents as Node | null, pointer, step, isEmptyScalar, options);
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
