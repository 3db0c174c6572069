/**
 * Deepest nesting of arrays and objects driftcheck reads in JSON from a service (a body,
 * the JSON in an answer) or from a file it reads back (a journal line, a report's case).
 * V8's JSON.parse is iterative and takes any depth, but what reads the value afterwards
 * recurses once per level (JSON.stringify, the JSON Schema validator): 20,000 nested `[]`
 * — 40 KB — overflowed the stack and ended the whole run. No honest body, answer or record
 * nests anywhere near this deep.
 */
export const MAX_JSON_DEPTH = 256;

/** Whether a parsed JSON value nests deeper than `limit` arrays/objects. Iterative: any depth is safe. */
export function deeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
