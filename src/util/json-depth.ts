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
  if (typeof value !== 'object' || value === null) return false;
  // Two stacks, not a pair per value: it runs over every answer a run reads.
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop() as Record<string, unknown>;
    const depth = depths.pop()!;
    if (depth > limit) return true;
    if (Array.isArray(v)) {
      for (const child of v as unknown[])
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        }
    } else
      for (const key of Object.keys(v)) {
        const child = v[key];
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        }
      }
  }
  return false;
}

/** JSON text from a service, parsed and held to MAX_JSON_DEPTH; `tooDeep` tells the two refusals apart. */
type BoundedJson = { value: unknown } | { error: string; tooDeep?: true };

/**
 * Parses JSON a service wrote inside its answer (the content, a tool call's `arguments`)
 * with the depth bound every service JSON gets: a value nested deeper is refused with a
 * message, never handed on to what recurses over it (the journal's JSON.stringify, the
 * validator, the drift compare).
 */
export function parseBoundedJson(text: string): BoundedJson {
  let value: unknown;
  try {
    // V8's JSON.parse is iterative: any depth parses; what comes after does not.
    value = JSON.parse(text) as unknown;
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  return deeperThan(value)
    ? {
        error: `the JSON value nests more than ${MAX_JSON_DEPTH} levels deep; driftcheck reads no deeper`,
        tooDeep: true,
      }
    : { value };
}
