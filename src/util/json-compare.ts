/** One difference between two JSON values, at a JSONPath-like location (`$.order.items[2].sku`). */
export interface JsonChange {
  path: string;
  kind: 'changed' | 'added' | 'removed';
  /** Absent for `added`. */
  baseline?: unknown;
  /** Absent for `removed`. */
  current?: unknown;
}

/** Past this nesting depth two subtrees are compared as whole texts (hostile output can nest thousands deep). */
const MAX_DEPTH = 64;
/** Stop collecting after this many changes: a message lists a few, and huge arrays must stay cheap. */
const MAX_CHANGES = 200;
/** Longest rendering of one value in a change line. */
const MAX_VALUE = 40;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function keyPath(parent: string, key: string): string {
  return IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/**
 * JSON text with every object's keys sorted: equal for values that differ only in key order
 * or formatting. Iterative, so hostile nesting thousands deep cannot overflow the stack.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // Tasks pop in output order: literal text, or a value still to write.
  const stack: (string | { v: unknown })[] = [{ v: value }];
  while (stack.length > 0) {
    const task = stack.pop()!;
    if (typeof task === 'string') {
      out.push(task);
      continue;
    }
    const v = task.v;
    if (Array.isArray(v)) {
      stack.push(']');
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ v: v[i] });
        if (i > 0) stack.push(',');
      }
      stack.push('[');
    } else if (isObject(v)) {
      const keys = Object.keys(v).sort();
      stack.push('}');
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ v: v[keys[i]!] }, `${JSON.stringify(keys[i])}:`);
        if (i > 0) stack.push(',');
      }
      stack.push('{');
    } else out.push(JSON.stringify(v) ?? 'null');
  }
  return out.join('');
}

/**
 * Structural differences between two parsed JSON values: key order and formatting are
 * ignored, object keys are matched by name, array items by position (order is meaning in
 * JSON arrays), and a type change is a change of the whole value. At most MAX_CHANGES.
 */
export function compareJson(baseline: unknown, current: unknown): JsonChange[] {
  const changes: JsonChange[] = [];
  const walk = (a: unknown, b: unknown, path: string, depth: number): void => {
    if (changes.length >= MAX_CHANGES) return;
    if (depth >= MAX_DEPTH) {
      if (canonicalJson(a) !== canonicalJson(b))
        changes.push({ path, kind: 'changed', baseline: a, current: b });
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      const shared = Math.min(a.length, b.length);
      for (let i = 0; i < shared; i++) walk(a[i], b[i], `${path}[${i}]`, depth + 1);
      for (let i = shared; i < a.length && changes.length < MAX_CHANGES; i++)
        changes.push({ path: `${path}[${i}]`, kind: 'removed', baseline: a[i] });
      for (let i = shared; i < b.length && changes.length < MAX_CHANGES; i++)
        changes.push({ path: `${path}[${i}]`, kind: 'added', current: b[i] });
      return;
    }
    if (isObject(a) && isObject(b)) {
      for (const key of Object.keys(a)) {
        if (Object.hasOwn(b, key)) walk(a[key], b[key], keyPath(path, key), depth + 1);
        else if (changes.length < MAX_CHANGES)
          changes.push({ path: keyPath(path, key), kind: 'removed', baseline: a[key] });
      }
      for (const key of Object.keys(b)) {
        if (!Object.hasOwn(a, key) && changes.length < MAX_CHANGES)
          changes.push({ path: keyPath(path, key), kind: 'added', current: b[key] });
      }
      return;
    }
    // Scalars, or a type change (object ↔ array ↔ scalar). -0 and 0 are the same JSON number.
    const same =
      a === b || (typeof a === 'object' && typeof b === 'object' && canonicalJson(a) === canonicalJson(b));
    if (!same) changes.push({ path, kind: 'changed', baseline: a, current: b });
  };
  walk(baseline, current, '$', 0);
  return changes;
}

function show(value: unknown): string {
  const text = canonicalJson(value);
  const chars = Array.from(text);
  return chars.length > MAX_VALUE ? `${chars.slice(0, MAX_VALUE).join('')}…` : text;
}

/** `$.order.status: "shipped" → "pending"`, `$.items[2]: added 3`, `$.note: removed "x"`. */
export function formatJsonChange(change: JsonChange): string {
  if (change.kind === 'added') return `${change.path}: added ${show(change.current)}`;
  if (change.kind === 'removed') return `${change.path}: removed ${show(change.baseline)}`;
  return `${change.path}: ${show(change.baseline)} → ${show(change.current)}`;
}

/** How many changes a drift message lists before summarising the rest. */
const LISTED_CHANGES = 5;

/** `N JSON values differ: $.a: 1 → 2; …; +3 more`: the changes a drift message lists. */
export function listJsonChanges(changes: readonly JsonChange[]): string {
  const listed = changes.slice(0, LISTED_CHANGES).map(formatJsonChange).join('; ');
  const more = changes.length > LISTED_CHANGES ? `; +${changes.length - LISTED_CHANGES} more` : '';
  const count = `${changes.length}${changes.length >= MAX_CHANGES ? '+' : ''}`;
  return `${count} JSON value${changes.length === 1 ? '' : 's'} differ: ${listed}${more}`;
}
