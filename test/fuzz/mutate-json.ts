import fc from 'fast-check';

/** One edit of a stored file's text, with words saying what it did (shown when a property fails). */
export interface JsonEdit {
  what: string;
  apply(text: string): string;
}

type Path = (string | number)[];

/** Every path to a value under `value` (the root excluded). */
function pathsOf(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const path = [...at, Array.isArray(value) ? Number(key) : key];
      out.push(path);
      pathsOf(child, path, out);
    }
  }
  return out;
}

/** An array nested `depth` deep: what a hostile file holds to reach a recursive reader's limit. */
const nested = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

/** What replaces a value: each a way a hand-edited or foreign file differs from driftcheck's. */
const REPLACEMENTS: [string, (old: unknown) => unknown][] = [
  ['null', () => null],
  ['a string', () => 'x'],
  ['a negative number', () => -1],
  ['a fraction', () => 0.5],
  ['true', () => true],
  ['an empty array', () => []],
  ['an empty object', () => ({})],
  ['an array of null', () => [null]],
  ['the array as a string', (old) => (Array.isArray(old) ? JSON.stringify(old) : 'x')],
  ['a huge number', () => 1e308],
  ['deep nesting', () => nested(3000)],
];

/** A seeded edit of one JSON value: a key deleted, or a value replaced by another type. */
function valueEdit(value: unknown): fc.Arbitrary<{ what: string; value: unknown }> {
  const paths = pathsOf(value);
  return fc
    .record({
      at: fc.nat({ max: Math.max(0, paths.length - 1) }),
      how: fc.nat({ max: REPLACEMENTS.length }),
    })
    .map(({ at, how }) => {
      const copy = structuredClone(value) as Record<string | number, unknown>;
      const path = paths[at] ?? [];
      if (path.length === 0) return { what: 'the whole value as null', value: null };
      const parent = path
        .slice(0, -1)
        .reduce<Record<string | number, unknown>>((o, k) => o[k] as Record<string | number, unknown>, copy);
      const key = path.at(-1)!;
      const where = `/${path.join('/')}`;
      if (how === REPLACEMENTS.length) {
        if (Array.isArray(parent)) parent.splice(Number(key), 1);
        else delete parent[key];
        return { what: `${where} deleted`, value: copy };
      }
      const [name, replace] = REPLACEMENTS[how]!;
      parent[key] = replace(parent[key]);
      return { what: `${where} set to ${name}`, value: copy };
    });
}

/** Cut at a random place: a torn write, or a file copied half. */
const truncation = fc.nat().map((at): JsonEdit => ({
  what: `truncated at ${at}`,
  apply: (t) => t.slice(0, at % Math.max(1, t.length)),
}));

/** Edits of a JSON file, re-serialized with `indent` (0: one line). */
export function jsonFileEdits(text: string): fc.Arbitrary<JsonEdit> {
  const value = JSON.parse(text) as unknown;
  return fc.oneof(
    {
      weight: 9,
      arbitrary: valueEdit(value).map(({ what, value: v }) => ({
        what,
        apply: () => `${JSON.stringify(v, null, 2)}\n`,
      })),
    },
    { weight: 1, arbitrary: truncation },
  );
}

/**
 * Edits of a file of JSON lines (a journal, a history month, or report.json's case lines),
 * one line at a time so the rest keeps driftcheck's layout: `lines` picks the lines that
 * hold one JSON value each.
 */
export function jsonLineEdits(
  text: string,
  lines: (line: string) => boolean = (l) => l.trim() !== '',
): fc.Arbitrary<JsonEdit> {
  const all = text.split('\n');
  const picked = all.flatMap((line, i) => (lines(line) ? [i] : []));
  return fc.integer({ min: 0, max: picked.length - 1 }).chain((n) => {
    const index = picked[n]!;
    const line = all[index]!;
    const comma = line.trimEnd().endsWith(',') ? ',' : '';
    const indent = /^\s*/.exec(line)![0];
    const value = JSON.parse(line.trim().replace(/,$/, '')) as unknown;
    const lineEdit = valueEdit(value).map(({ what, value: v }): JsonEdit => ({
      what: `line ${index + 1}: ${what}`,
      apply: () => all.map((l, i) => (i === index ? `${indent}${JSON.stringify(v)}${comma}` : l)).join('\n'),
    }));
    return fc.oneof({ weight: 9, arbitrary: lineEdit }, { weight: 1, arbitrary: truncation });
  });
}
