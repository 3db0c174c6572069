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

/** The columns a template reads, each once, in order of first use. */
export function columnsOf(placeholders: readonly Placeholder[]): string[] {
  return [...new Set(placeholders.map((p) => p.name))];
}

/**
 * Fills a template from one row: logic-less substitution, nothing evaluated. A text that is
 * one placeholder alone takes the row's value as it is (a JSON Lines row's list stays a
 * list); inside longer text a value is written as text (a string as is, anything else as
 * JSON). Returns the names the row lacks instead when there are any. `columns` is what the
 * template reads (columnsOf): a table passes it once for all its rows.
 */
export function fillTemplate(
  template: unknown,
  values: Readonly<Record<string, unknown>>,
  columns: readonly string[] = columnsOf(placeholdersOf(template)),
): { value: unknown; missing?: undefined } | { value?: undefined; missing: string[] } {
  const missing = columns.filter((name) => !Object.hasOwn(values, name));
  if (missing.length > 0) return { missing };
  return { value: fill(template, values) };
}

function fill(node: unknown, values: Readonly<Record<string, unknown>>): unknown {
  if (typeof node === 'string') {
    const whole = WHOLE.exec(node);
    if (whole) return values[whole[1]!];
    return node.replace(PLACEHOLDER, (_, name: string) => asText(values[name]));
  }
  if (Array.isArray(node)) return node.map((item) => fill(item, values));
  if (node !== null && typeof node === 'object') {
    // fromEntries defines own properties: a `__proto__` key stays a key.
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, fill(v, values)]));
  }
  return node;
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
