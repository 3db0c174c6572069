import { setField } from '../util/own-field.js';
import { escapePointer } from '../yaml/locate.js';

/** A `{{column}}` in a case template, and the JSON Pointer of the text holding it (`/expect/0/contains`). */
export interface Placeholder {
  name: string;
  pointer: string;
}

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const WHOLE = /^\{\{\s*([^{}]*?)\s*\}\}$/;

/** Every placeholder of a template, in document order (keys are not templated, only text values). */
export function placeholdersOf(template: unknown): Placeholder[] {
  const out: Placeholder[] = [];
  walk(template, '', (text, pointer) => {
    for (const m of text.matchAll(PLACEHOLDER)) out.push({ name: m[1]!, pointer });
  });
  return out;
}

/**
 * Whether a problem of a case made from the template, at `pointer` (below the case), is the
 * row's and not the template's: the value there came from a row (a placeholder at it or
 * above it), or holds a row's text (a placeholder below it) — except for a problem with an
 * object's keys (`additionalProperties`, `required`), since keys are never templated. A
 * template's own problems are reported once, where the template is written; each row's
 * problems, the others, at the row — so a typo in the template is not said once a row.
 */
export function isRowProblem(
  placeholders: readonly Placeholder[],
  pointer: string,
  keyword?: string,
): boolean {
  const within = (p: string, root: string) => p === root || p.startsWith(`${root}/`);
  if (placeholders.some((p) => within(pointer, p.pointer))) return true;
  if (keyword === 'additionalProperties' || keyword === 'required') return false;
  return placeholders.some((p) => within(p.pointer, pointer));
}

/** The columns a template reads, each once, in order of first use. */
function columnsOf(placeholders: readonly Placeholder[]): string[] {
  return [...new Set(placeholders.map((p) => p.name))];
}

/** A case template made ready to fill: what it reads, and a filling per row. */
export interface CaseTemplate {
  /** The columns it reads, each once, in order of first use. */
  readonly columns: readonly string[];
  /**
   * Fills it from one row: logic-less substitution, nothing evaluated. A text that is one
   * placeholder alone takes the row's value as it is (a JSON Lines row's list stays a list);
   * inside longer text a value is written as text (a string as is, anything else as JSON).
   * Returns the names the row lacks instead when there are any.
   */
  fill(
    values: Readonly<Record<string, unknown>>,
  ): { value: unknown; missing?: undefined } | { value?: undefined; missing: string[] };
}

type Values = Readonly<Record<string, unknown>>;
type Fill = (values: Values) => unknown;

/**
 * Reads a template once, for all of a table's rows: each text is split at its placeholders
 * once, and a row's case is built straight from the pieces. Filling by walking the template
 * per row (a regular expression per text, entries copied per object) made 2.7 KB of garbage
 * a row, the most of any step of a 100,000-row run.
 */
export function compileTemplate(template: unknown): CaseTemplate {
  const columns = columnsOf(placeholdersOf(template));
  const fill = compile(template);
  return {
    columns,
    fill(values) {
      for (const name of columns)
        if (!Object.hasOwn(values, name))
          return { missing: columns.filter((c) => !Object.hasOwn(values, c)) };
      return { value: fill(values) };
    },
  };
}

function compile(node: unknown): Fill {
  if (typeof node === 'string') return compileText(node);
  if (Array.isArray(node)) {
    const items = node.map(compile);
    return (values) => items.map((item) => item(values));
  }
  if (node !== null && typeof node === 'object') {
    const keys = Object.keys(node);
    const fills = keys.map((k) => compile((node as Record<string, unknown>)[k]));
    // A `__proto__` key stays an own key (setField).
    return (values) => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) setField(out, keys[i]!, fills[i]!(values));
      return out;
    };
  }
  return () => node;
}

function compileText(text: string): Fill {
  const whole = WHOLE.exec(text);
  if (whole) {
    const name = whole[1]!;
    return (values) => values[name];
  }
  // Split at the placeholders, their names captured: literal, name, literal, …, literal.
  const parts = text.split(PLACEHOLDER);
  if (parts.length === 1) return () => text;
  return (values) => {
    let out = parts[0]!;
    for (let i = 1; i < parts.length; i += 2) out += asText(values[parts[i]!]) + parts[i + 1]!;
    return out;
  };
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function walk(node: unknown, pointer: string, visit: (text: string, pointer: string) => void): void {
  if (typeof node === 'string') visit(node, pointer);
  else if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${pointer}/${i}`, visit));
  else if (node !== null && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) walk(v, `${pointer}/${escapePointer(k)}`, visit);
}
