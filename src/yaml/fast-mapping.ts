import { CORE_SCHEMA, load, type LoadOptions, type State } from 'js-yaml';
import { type PointerStep, type Position, walkPointer } from './locate.js';
import { MAX_DEPTH } from './plain-data.js';

/**
 * The fast path for reading a suite or config: js-yaml's loader (`validate` on 20,000
 * cases: 3.0 s on the `yaml` package, 0.85 s on this path) on the plain
 * subset of YAML that hand-written suites use. Where each node starts is taken from the
 * loader's open/close listener. It gives up — returns null — on anything outside that
 * subset (anchors, aliases, tags, directives, explicit or non-string keys, merge and
 * prototype keys, more than one document, deep nesting, any syntax error, any plain
 * scalar the two YAML readers would type differently); the full path (`parseYamlMapping`)
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
  /** A block scalar (`|`, `>`): where the full path puts its start is not known here. */
  block: boolean;
}
interface PosMap {
  kind: 'map';
  at: number;
  pairs: { key: string; keyNode: PosScalar; value: PosNode }[];
}
interface PosSeq {
  kind: 'seq';
  at: number;
  items: PosNode[];
}
type PosNode = PosScalar | PosMap | PosSeq;

export interface FastMapping {
  data: Record<string, unknown>;
  locate(pointer: string, options?: { key?: boolean }): Position;
}

/** Thrown from the listener to stop reading: the full path takes the file. */
class Decline extends Error {}

/** Reads `source` (CRs already normalised) on the fast path, or returns null to say "use the full path". */
export function fastYamlMapping(source: string): FastMapping | null {
  // A byte-order mark would shift offsets against the full path's; a directive is the full path's.
  if (source.startsWith('\uFEFF') || /^%/m.test(source)) return null;
  const tree = new TreeBuilder(source);
  let data: unknown;
  try {
    data = load(source, {
      schema: CORE_SCHEMA,
      // The full path refuses deeper nesting with a diagnostic; scalars count here too, so
      // this declines a little early, never late.
      maxDepth: MAX_DEPTH,
      listener: (event, state) => (event === 'open' ? tree.open(state) : tree.close(state)),
      onWarning: () => {
        throw new Decline();
      },
    } as LoadOptions);
  } catch {
    return null; // a syntax error, duplicate keys, or something declined above
  }
  const root = tree.root;
  if (root === null || root.kind !== 'map') return null;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const lines = lineStarts(source);
  return {
    data: data as Record<string, unknown>,
    locate: (pointer, options) => positionAt(lines, locateNode(root, pointer, options)),
  };
}

interface Frame {
  at: number;
  /** The nodes read inside this one, in order (null until the first: most nodes are scalars). */
  children: { node: PosNode; key: string | null }[] | null;
}

/** Builds the position tree from js-yaml's open/close events, declining what it cannot vouch for. */
class TreeBuilder {
  root: PosNode | null = null;
  private readonly stack: Frame[] = [];

  constructor(private readonly source: string) {}

  open(state: State): void {
    const at = this.skipSeparation(state.position);
    const c = this.source.charCodeAt(at);
    // `&anchor`, `*alias`, `!tag`, an explicit `? key`, or a `#` that is not a comment.
    if (c === AMP || c === STAR || c === BANG || c === HASH) throw new Decline();
    if (c === QUESTION && isBlankOrEnd(this.source.charCodeAt(at + 1))) throw new Decline();
    this.stack.push({ at, children: null });
  }

  close(state: State): void {
    const frame = this.stack.pop();
    if (!frame) throw new Decline();
    const node = this.nodeOf(frame, state);
    const isKey = this.source.charCodeAt(this.skipSpaces(state.position)) === COLON;
    let key: string | null = null;
    if (isKey) {
      // Only plain string keys: the two readers turn other keys into different strings.
      const result: unknown = state.result;
      if (node.kind !== 'scalar' || typeof result !== 'string') throw new Decline();
      if (result === '<<' || result === '__proto__') throw new Decline();
      key = result;
    }
    const parent = this.stack[this.stack.length - 1];
    if (parent) (parent.children ??= []).push({ node, key });
    else if (this.root === null) this.root = node;
    else throw new Decline();
  }

  private nodeOf(frame: Frame, state: State): PosNode {
    // js-yaml reads a block value by first trying it as a mapping's key; when no `:`
    // follows, it keeps what it read as the value itself. That attempt opened and closed
    // a node of its own, at the same place: it is this node.
    const children = frame.children ?? [];
    const only = children.length === 1 ? children[0]! : null;
    if (only && only.key === null && only.node.at === frame.at) return only.node;
    const result: unknown = state.result;
    switch (state.kind as string | null) {
      case 'mapping': {
        // Keys and values alternate; a key straight after a key had an empty value.
        const pairs: PosMap['pairs'] = [];
        let key: string | null = null;
        let keyNode: PosScalar = EMPTY;
        for (const child of children) {
          if (child.key !== null) {
            if (key !== null) pairs.push({ key, keyNode, value: EMPTY });
            key = child.key;
            keyNode = child.node as PosScalar;
          } else if (key !== null) {
            pairs.push({ key, keyNode, value: child.node });
            key = null;
          } else throw new Decline();
        }
        if (key !== null) pairs.push({ key, keyNode, value: EMPTY });
        if (typeof result !== 'object' || result === null || !sameSize(result, pairs.length))
          throw new Decline();
        return { kind: 'map', at: frame.at, pairs };
      }
      case 'sequence': {
        const items = children.map((c) => {
          if (c.key !== null) throw new Decline(); // `[a: b]`, a mapping inside a flow list
          return c.node;
        });
        // `- ` with nothing after it adds an item without a node of its own.
        if (!Array.isArray(result) || result.length !== items.length) throw new Decline();
        return { kind: 'seq', at: frame.at, items };
      }
      case 'scalar': {
        const c = this.source.charCodeAt(frame.at);
        const block = c === PIPE || c === GT;
        if (!block && c !== QUOTE && c !== DQUOTE) this.checkPlainType(frame.at, result);
        return { kind: 'scalar', at: frame.at, block };
      }
      default:
        return EMPTY; // an empty value
    }
  }

  /**
   * A plain scalar must come out with the type and value the full path (YAML 1.2 core
   * schema) gives it: js-yaml reads `0b101` as a number and `+.5` as text, the full path the
   * other way round.
   */
  private checkPlainType(at: number, result: unknown): void {
    if (typeof result === 'string') {
      if (coreValue(result) !== NOT_TYPED) throw new Decline();
      return;
    }
    const token = /^[^\s,[\]{}:#]*/.exec(this.source.slice(at, at + 64))?.[0] ?? '';
    if (!Object.is(coreValue(token), result)) throw new Decline();
  }

  /** Past spaces, tabs, line breaks (CRLF too) and comments. */
  private skipSeparation(from: number): number {
    const s = this.source;
    let i = from;
    for (;;) {
      const c = s.charCodeAt(i);
      if (isBlank(c)) i += 1;
      else if (c === HASH && (i === 0 || isBlank(s.charCodeAt(i - 1)))) {
        const end = s.indexOf('\n', i);
        if (end === -1) return s.length;
        i = end + 1;
      } else return i;
    }
  }

  /** Past spaces and tabs: an implicit key's `:` is on its own line. */
  private skipSpaces(from: number): number {
    let i = from;
    while (isSpace(this.source.charCodeAt(i))) i += 1;
    return i;
  }
}

/** Whether `object` has exactly `size` own keys, without listing them. */
function sameSize(object: object, size: number): boolean {
  let count = 0;
  for (const key in object) if (Object.hasOwn(object, key) && ++count > size) return false;
  return count === size;
}

const EMPTY: PosScalar = { kind: 'scalar', at: -1, block: false };

const code = (c: string) => c.charCodeAt(0);
const TAB = code('\t');
const LF = code('\n');
const CR = code('\r');
const SPACE = code(' ');
const BANG = code('!');
const DQUOTE = code('"');
const HASH = code('#');
const AMP = code('&');
const QUOTE = code("'");
const STAR = code('*');
const COLON = code(':');
const GT = code('>');
const QUESTION = code('?');
const PIPE = code('|');

const isSpace = (c: number) => c === SPACE || c === TAB;
const isBlank = (c: number) => isSpace(c) || c === LF || c === CR;
const isBlankOrEnd = (c: number) => isBlank(c) || Number.isNaN(c);

const NOT_TYPED = Symbol('string');
const CORE_FIRST = /^[-+.~0-9nNtTfF]/;

/**
 * What the YAML 1.2 core schema (the full path's) makes of a plain scalar's text: a string
 * when NOT_TYPED. The `yaml` package has these rules, but loading it is what the fast path
 * saves; test/suite/fast-path.test.ts holds the two to the same answers.
 */
function coreValue(text: string): unknown {
  // Every typed scalar starts with one of `0-9 + - . ~ n N t T f F` (or is empty).
  if (text.length > 0 && !CORE_FIRST.test(text)) return NOT_TYPED;
  if (/^(?:~|[Nn]ull|NULL)?$/.test(text)) return null;
  if (/^(?:[Tt]rue|TRUE)$/.test(text)) return true;
  if (/^(?:[Ff]alse|FALSE)$/.test(text)) return false;
  if (/^[-+]?[0-9]+$/.test(text)) return Number.parseInt(text, 10);
  if (/^0o[0-7]+$/.test(text)) return Number.parseInt(text.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return Number.parseInt(text.slice(2), 16);
  if (/^[-+]?\.(?:inf|Inf|INF)$/.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^\.(?:nan|NaN|NAN)$/.test(text)) return Number.NaN;
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(text))
    return Number.parseFloat(text);
  return NOT_TYPED;
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
