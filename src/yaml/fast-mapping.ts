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
  if (tree.root < 0 || tree.kindOf(tree.root) !== MAP) return null;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const lines = lineStarts(source);
  return {
    data: data as Record<string, unknown>,
    locate: (pointer, options) => positionAt(lines, tree, tree.locate(pointer, options)),
  };
}

/** Node kinds in the position tree (the low bits of a node's `info`). */
const SCALAR = 0;
const MAP = 1;
const SEQ = 2;
const KIND = 3;
/** A block scalar (`|`, `>`): where the full path puts its start is not known here. */
const BLOCK = 4;
/** The node is a mapping's key (its text is in `keys`). */
const KEY = 8;
/** The empty value of a key straight after a key: not a recorded node. */
const EMPTY = -1;

/**
 * Builds the position tree from js-yaml's open/close events, declining what it cannot
 * vouch for. The tree is flat: one slot per node in typed arrays, in the order nodes
 * close (children before their parent), each slot knowing where its subtree starts. With
 * an object per node, the tree was 263 of the 738 MB allocated while loading 100,000
 * cases, and loading took 2.9 s instead of 2.1–2.4 s.
 */
class TreeBuilder {
  /** The root's slot, or -1 before it closes. */
  root = -1;
  private count = 0;
  /** Where each node starts (a quoted scalar at its quote); -1 for an empty value. */
  private at = new Int32Array(256);
  private info = new Uint8Array(256);
  /** The first slot of each node's subtree (its own slot when it has no children). */
  private first = new Int32Array(256);
  private readonly keys: (string | undefined)[] = [];
  /** The nodes open now: where each starts, and the slot count when it opened. */
  private readonly openAt: number[] = [];
  private readonly openFirst: number[] = [];
  /** One closing node's children (reused: closing never nests). */
  private readonly scratch: number[] = [];
  /** Each collection's children in order, listed when `locate` first walks it. */
  private readonly lists = new Map<number, number[]>();

  constructor(private readonly source: string) {}

  kindOf(slot: number): number {
    return slot === EMPTY ? SCALAR : this.info[slot]! & KIND;
  }

  open(state: State): void {
    const at = this.skipSeparation(state.position);
    const c = this.source.charCodeAt(at);
    // `&anchor`, `*alias`, `!tag`, an explicit `? key`, or a `#` that is not a comment.
    if (c === AMP || c === STAR || c === BANG || c === HASH) throw new Decline();
    if (c === QUESTION && isBlankOrEnd(this.source.charCodeAt(at + 1))) throw new Decline();
    this.openAt.push(at);
    this.openFirst.push(this.count);
  }

  close(state: State): void {
    const at = this.openAt.pop();
    const first = this.openFirst.pop();
    if (at === undefined || first === undefined) throw new Decline();
    const slot = this.nodeOf(at, first, state);
    if (this.source.charCodeAt(this.skipSpaces(state.position)) === COLON) {
      // Only plain string keys: the two readers turn other keys into different strings.
      const result: unknown = state.result;
      if (this.kindOf(slot) !== SCALAR || typeof result !== 'string') throw new Decline();
      if (result === '<<' || result === '__proto__') throw new Decline();
      this.info[slot]! |= KEY;
      this.keys[slot] = result;
    }
    // Inside another node, the parent finds it when it closes.
    if (this.openAt.length > 0) return;
    if (this.root === -1) this.root = slot;
    else throw new Decline();
  }

  /** The slot of the node closing now: a new one, or the one read inside it. */
  private nodeOf(at: number, first: number, state: State): number {
    const children = this.childrenOf(first, this.count, this.scratch);
    // js-yaml reads a block value by first trying it as a mapping's key; when no `:`
    // follows, it keeps what it read as the value itself. That attempt opened and closed
    // a node of its own, at the same place: it is this node.
    if (children.length === 1) {
      const only = children[0]!;
      if ((this.info[only]! & KEY) === 0 && this.at[only] === at) return only;
    }
    const result: unknown = state.result;
    switch (state.kind as string | null) {
      case 'mapping': {
        // Keys and values alternate; a key straight after a key had an empty value.
        let pairs = 0;
        let key = false;
        for (const child of children) {
          if ((this.info[child]! & KEY) !== 0) {
            if (key) pairs += 1;
            key = true;
          } else if (key) {
            pairs += 1;
            key = false;
          } else throw new Decline();
        }
        if (key) pairs += 1;
        if (typeof result !== 'object' || result === null || !sameSize(result, pairs)) throw new Decline();
        return this.record(at, MAP, first);
      }
      case 'sequence': {
        // `[a: b]`, a mapping inside a flow list.
        for (const child of children) if ((this.info[child]! & KEY) !== 0) throw new Decline();
        // `- ` with nothing after it adds an item without a node of its own.
        if (!Array.isArray(result) || result.length !== children.length) throw new Decline();
        return this.record(at, SEQ, first);
      }
      case 'scalar': {
        const c = this.source.charCodeAt(at);
        const block = c === PIPE || c === GT;
        if (!block && c !== QUOTE && c !== DQUOTE) this.checkPlainType(at, result);
        return this.record(at, block ? SCALAR | BLOCK : SCALAR, first);
      }
      default:
        return this.record(-1, SCALAR, first); // an empty value
    }
  }

  /** Adds a node whose subtree is the slots from `first` on; returns its slot. */
  private record(at: number, info: number, first: number): number {
    const slot = this.count;
    if (slot === this.at.length) {
      this.at = grown(this.at, new Int32Array(slot * 2));
      this.info = grown(this.info, new Uint8Array(slot * 2));
      this.first = grown(this.first, new Int32Array(slot * 2));
    }
    this.at[slot] = at;
    this.info[slot] = info;
    this.first[slot] = first;
    this.count = slot + 1;
    return slot;
  }

  /**
   * The direct children among the slots from `first` to `end - 1`, in order: the last
   * slot is a child, and the slot just before a child's subtree is the child before it.
   */
  private childrenOf(first: number, end: number, into: number[]): number[] {
    into.length = 0;
    for (let slot = end - 1; slot >= first; slot = this.first[slot]! - 1) into.push(slot);
    return into.reverse();
  }

  /** The full path's `locate` rules (walkPointer), on the position tree. */
  locate(pointer: string, options?: { key?: boolean }): number {
    const step: PointerStep<number> = (node, segment) => {
      const kind = this.kindOf(node);
      if (kind === SCALAR) return undefined;
      const children = this.listOf(node);
      if (kind === SEQ) {
        const item = children[Number(segment)];
        return item === undefined ? undefined : { value: item, key: null };
      }
      const i = children.findIndex((child) => this.keys[child] === segment);
      if (i === -1) return undefined;
      const next = children[i + 1];
      const value = next === undefined || (this.info[next]! & KEY) !== 0 ? EMPTY : next;
      return { value, key: children[i]! };
    };
    const isEmpty = (node: number) => node === EMPTY || this.at[node] === -1;
    return walkPointer(this.root, pointer, step, isEmpty, options) ?? this.root;
  }

  /** Where a node starts (-1 when empty), or null where the full path's answer is not known here. */
  startOf(slot: number): number | null {
    if (slot === EMPTY) return -1;
    return (this.info[slot]! & BLOCK) !== 0 ? null : this.at[slot]!;
  }

  private listOf(slot: number): number[] {
    let list = this.lists.get(slot);
    if (!list) {
      list = this.childrenOf(this.first[slot]!, slot, []);
      this.lists.set(slot, list);
    }
    return list;
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

function positionAt(lines: number[], tree: TreeBuilder, node: number): Position {
  const start = tree.startOf(node);
  if (start === null) throw new FastPathUnsure();
  const offset = Math.max(0, start);
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

/** `to` with `from` copied to its start. */
function grown<T extends Int32Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
