/**
 * The parsed data with every string its own: the one place where what a YAML reader hands
 * over is made independent of the file's text. V8 keeps a substring of 13 characters or
 * more as a view into its parent, so one prompt or check value read from a file kept the
 * whole file's text alive for the run (about 9 MB at 100,000 cases; a test in
 * test/util/retained-memory.process.test.ts holds it to that). Prepending a character and slicing
 * it off again makes V8 copy the characters once (about 150 ns); shorter strings are
 * copies already. Walks with an explicit stack: the data's depth is bounded by the reader.
 */
export function ownStrings<T>(data: T): T {
  const stack: unknown[] = [data];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    // By index or key, not through entries: a pair per value made more garbage than the copies.
    const values = node as Record<string | number, unknown>;
    if (Array.isArray(node)) for (let i = 0; i < node.length; i++) visit(values, i, stack);
    else for (const key of Object.keys(node)) visit(values, key, stack);
  }
  return data;
}

function visit(node: Record<string | number, unknown>, key: string | number, stack: unknown[]): void {
  const value = node[key];
  if (typeof value === 'string') node[key] = own(value);
  else if (value !== null && typeof value === 'object') stack.push(value);
}

function own(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}
