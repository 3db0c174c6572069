import {
  constructFromEvents,
  CORE_SCHEMA,
  type Event,
  EVENT_ID,
  getScalarValue,
  parseEvents,
  SCALAR_STYLE,
} from 'js-yaml';
import { type PointerStep, type Position, walkPointer } from './locate.js';
import { MAX_DEPTH } from './plain-data.js';

/**
 * The fast path for reading a suite or config: js-yaml's event parser (several times
 * faster than the `yaml` package, most of the load time of a large suite) on the plain
 * subset of YAML that hand-written suites use. It gives up — returns null — on anything
 * outside that subset (anchors, aliases, tags, directives, merge keys, complex keys, more
 * than one document, deep nesting, any syntax error); the full path (`parseYamlMapping`)
 * then reads the file again and produces the exact diagnostics. It never reports a
 * problem itself.
 */

/** A position the fast path cannot give the way the full path would (a block scalar's header). */
export class FastPathUnsure extends Error {
  constructor() {
    super('position not known on the fast path');
  }
}

interface PosScalar {
  kind: 'scalar';
  /** Where the full path's node starts (a quoted scalar starts at its quote); -1 when empty. */
  at: number;
  /** A block scalar (`|`, `>`): its header is not in the event, so its position is unsure. */
  block: boolean;
}
interface PosMap {
  kind: 'map';
  at: number;
  pairs: { key: string; keyNode: PosScalar; value: PosNode | null }[];
}
interface PosSeq {
  kind: 'seq';
  at: number;
  items: PosNode[];
}
type PosNode = PosScalar | PosMap | PosSeq;

interface Frame {
  node: PosMap | PosSeq;
  /** In a mapping: the key read, waiting for its value. */
  key: { text: string; node: PosScalar } | null;
}

export interface FastMapping {
  data: Record<string, unknown>;
  locate(pointer: string, options?: { key?: boolean }): Position;
}

/** Reads `source` (CRs already normalised) on the fast path, or returns null to say "use the full path". */
export function fastYamlMapping(source: string): FastMapping | null {
  // A byte-order mark would shift js-yaml's offsets against the full path's.
  if (source.startsWith('\uFEFF')) return null;
  let events: Event[];
  try {
    events = parseEvents(source, { maxDepth: MAX_DEPTH });
  } catch {
    return null;
  }
  const root = positionTree(events, source);
  if (root === null || root.kind !== 'map') return null;
  let data: unknown;
  try {
    // No aliases reach here (positionTree refuses them); 0 makes sure of it.
    [data] = constructFromEvents(events, { source, schema: CORE_SCHEMA, maxAliases: 0 });
  } catch {
    return null; // duplicate keys, out-of-range values: the full path explains them
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const lines = lineStarts(source);
  return {
    data: data as Record<string, unknown>,
    locate: (pointer, options) => positionAt(lines, locateNode(root, pointer, options)),
  };
}

/**
 * One pass over the events: refuses what only the full path handles, and keeps where
 * each node starts, as the full path would report it.
 */
function positionTree(events: Event[], source: string): PosNode | null {
  let root: PosNode | null = null;
  let documents = 0;
  const stack: Frame[] = [];
  const place = (node: PosNode): boolean => {
    const frame = stack[stack.length - 1];
    if (!frame) {
      root = node;
      return true;
    }
    if (frame.node.kind === 'seq') {
      frame.node.items.push(node);
      return true;
    }
    if (frame.key === null) return false; // a list or mapping as a key
    frame.node.pairs.push({ key: frame.key.text, keyNode: frame.key.node, value: node });
    frame.key = null;
    return true;
  };
  for (const event of events) {
    switch (event.type) {
      case EVENT_ID.DOCUMENT:
        documents += 1;
        if (documents > 1 || event.directives.length > 0) return null;
        break;
      case EVENT_ID.SEQUENCE:
      case EVENT_ID.MAPPING: {
        if (event.anchorStart !== -1 || event.tagStart !== -1 || stack.length >= MAX_DEPTH) return null;
        const node: PosMap | PosSeq =
          event.type === EVENT_ID.MAPPING
            ? { kind: 'map', at: event.start, pairs: [] }
            : { kind: 'seq', at: event.start, items: [] };
        if (!place(node)) return null;
        stack.push({ node, key: null });
        break;
      }
      case EVENT_ID.SCALAR: {
        if (event.anchorStart !== -1 || event.tagStart !== -1) return null;
        const quoted =
          event.style === SCALAR_STYLE.SINGLE_QUOTED || event.style === SCALAR_STYLE.DOUBLE_QUOTED;
        const node: PosScalar = {
          kind: 'scalar',
          at: event.valueStart === -1 ? -1 : quoted ? event.valueStart - 1 : event.valueStart,
          block: event.style === SCALAR_STYLE.LITERAL_BLOCK || event.style === SCALAR_STYLE.FOLDED_BLOCK,
        };
        const frame = stack[stack.length - 1];
        if (frame?.node.kind === 'map' && frame.key === null) {
          const text = getScalarValue(source, event);
          // Merge keys and prototype keys: the full path's rules, not the fast path's.
          if (text === '<<' || text === '__proto__') return null;
          frame.key = { text, node };
        } else if (!place(node)) return null;
        break;
      }
      case EVENT_ID.POP:
        // Closing a document pops nothing of ours.
        if (stack.length > 0) stack.pop();
        break;
      default:
        return null; // an alias
    }
  }
  return root;
}

/** The full path's `locate` rules (walkPointer), on the position tree. */
function locateNode(root: PosNode, pointer: string, options?: { key?: boolean }): PosNode {
  const step: PointerStep<PosNode> = (node, segment) => {
    if (node.kind === 'map') {
      const pair = node.pairs.find((p) => p.key === segment);
      return pair ? { value: pair.value, key: pair.keyNode } : undefined;
    }
    const item = node.kind === 'seq' ? node.items[Number(segment)] : undefined;
    return item ? { value: item, key: null } : undefined;
  };
  return walkPointer(root, pointer, step, (n) => n.kind === 'scalar' && n.at === -1, options) ?? root;
}

function positionAt(lines: number[], node: PosNode): Position {
  if (node.kind === 'scalar' && node.block) throw new FastPathUnsure();
  const offset = Math.max(0, node.at);
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lines[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - lines[lo]! + 1 };
}

function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}
