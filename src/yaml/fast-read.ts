import { load } from 'js-yaml';
import type { Validated } from '../util/errors.js';
import { YAML_CORE_SCHEMA } from './core-schema.js';
import type { Position } from './locate.js';
import { ownStrings } from './own-strings.js';
import type { YamlMapping } from './parse-mapping.js';
import { MAX_DEPTH } from './plain-data.js';

/**
 * The second YAML reader, behind this one seam: everything here exists to read large
 * suites quickly, and `readYamlMapping` (parse-mapping.ts) is its only caller. Removing
 * this file (and its call) leaves driftcheck correct, every diagnostic unchanged — the
 * full path (`yaml` with positions) reads everything this declines.
 *
 * Why it stays, measured on 2026-11-28 for issue 34 (bench/README.md, "one YAML reader or
 * two"; whole processes, medians of three): `driftcheck validate` of 100 files × 1,000
 * written cases 0.72 s CPU and 89 MB with it, 6.3 s and 126 MB with `yaml` alone; one
 * such file 0.18 s against 0.48 s; `driftcheck run --sim` of the 100,000 cases 19.6 s CPU
 * against 29.0 s. Case tables (JSONL, CSV) do not go through YAML at all; this is for
 * suites written out case by case. `node bench/run.mjs --scale readers` measures it again.
 *
 * It is lost without a wrong answer when checking a suite asks `locate` for a position the
 * line scan does not give (every suite is then read twice): test/suite/fast-path-taken.test.ts
 * holds written suites and the config to never loading `yaml`.
 */

/**
 * A suite or config read and checked on the fast path, or null: the caller reads it on the
 * full path. `source` has its line breaks normalised. Null when the fast reader declines
 * the file, when `check` asks for a position the raw lines do not give (only diagnostics
 * do), or when `check` finds any problem — so every diagnostic comes from the full path.
 */
export function readFast<T>(
  source: string,
  file: string,
  check: (yaml: YamlMapping) => Validated<T>,
  full: () => YamlMapping['locate'],
): { value: T; errors?: undefined } | null {
  const data = fastRead(source);
  if (!data) return null;
  let settled = false;
  try {
    const locate = layoutLocator(source, data, () => (settled ? full() : null));
    const checked = check({ file, data: ownStrings(data), locate });
    settled = true;
    return checked.errors === undefined ? checked : null;
  } catch (error) {
    if (error instanceof PositionUnknown) return null;
    throw error;
  }
}

/**
 * Thrown by the fast path's `locate` for a position the raw lines do not give, and caught
 * in readFast only: `check` is written against `locate` returning a position, and asks for
 * other positions only to build a diagnostic, which the full path then builds instead.
 */
class PositionUnknown extends Error {
  constructor() {
    super('position not known on the fast path');
  }
}

/**
 * `locate` on the fast path: `/suite`, `/service`, `/model` and `/cases/N` from the raw lines.
 * Any other position asked while the file is checked sends it to the full path; asked once
 * it was read (a table's placeholder, located only when a row has a problem with it), it is
 * the full path's, which `full` gives only then.
 */
function layoutLocator(
  source: string,
  data: Record<string, unknown>,
  full: () => YamlMapping['locate'] | null,
): YamlMapping['locate'] {
  let layout: SuiteLayout | null | undefined;
  let fullLocate: YamlMapping['locate'] | null = null;
  return (pointer, options) => {
    if (layout === undefined) {
      layout = scanSuiteLayout(source);
      // The layout must account for exactly the cases read, and the name must be where it says.
      // (A suite of tables only has no `cases:` line and no cases.)
      const cases = Array.isArray(data.cases) ? data.cases.length : data.cases === undefined ? 0 : -1;
      if (layout && layout.cases.length !== cases) layout = null;
      if (layout && !namesAt(source, layout.suite, data.suite)) layout = null;
      if (layout?.service && !namesAt(source, layout.service, data.service)) layout = null;
      if (layout?.model && !namesAt(source, layout.model, data.model)) layout = null;
    }
    if (layout && !options?.key) {
      if (pointer === '/suite') return layout.suite;
      if (pointer === '/service' && layout.service) return layout.service;
      if (pointer === '/model' && layout.model) return layout.model;
      const match = /^\/cases\/(\d+)$/.exec(pointer);
      const at = match ? layout.cases[Number(match[1])] : undefined;
      if (at) return at;
    }
    fullLocate ??= full();
    if (fullLocate) return fullLocate(pointer, options);
    throw new PositionUnknown();
  };
}

/** Whether the text at `at` starts with `name` written plainly or quoted. */
function namesAt(source: string, at: Position, name: unknown): boolean {
  if (typeof name !== 'string') return false;
  let offset = 0;
  for (let line = 1; line < at.line; line++) offset = source.indexOf('\n', offset) + 1;
  const text = source.slice(offset + at.column - 1, offset + at.column + name.length + 1);
  return text.startsWith(name) || text.startsWith(`"${name}"`) || text.startsWith(`'${name}'`);
}

/**
 * The fast reader's data for suites and configs: js-yaml's public `load` (loading 100,000
 * cases: about 0.4 s, against 8 s and 340 MB peak for the `yaml` package's documents).
 * It takes only plain YAML whose data both readers agree on; anything else — or any
 * file with a diagnostic — goes to the full path (`yaml`), which gives every position
 * and diagnostic. Returns null to say "use the full path"; it never reports a problem.
 */
export function fastRead(source: string): Record<string, unknown> | null {
  // A byte-order mark or a directive shifts what the full path reports.
  if (source.charCodeAt(0) === 0xfeff || /^%/m.test(source) || NOT_PLAIN.test(source)) return null;
  let data: unknown;
  try {
    data = load(source, {
      schema: YAML_CORE_SCHEMA,
      onWarning: () => {
        throw new Error('declined');
      },
    });
  } catch {
    return null; // a syntax error, a duplicate key, several documents: the full path says which
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  return withinDepth(data, 1) ? (data as Record<string, unknown>) : null;
}

/**
 * What the full path reads differently, or refuses with a diagnostic: anchors and
 * aliases (`&a`, `*a`), tags (`!x`), merge keys (`<<:`), complex keys (`? `, `[a]:`),
 * null keys and `__proto__`. Matched on the raw text, so a prompt that merely contains such
 * characters after a space also goes to the full path: slower, never wrong.
 */
const NOT_PLAIN =
  /(?:^|[\s[{,])(?:[&*!][^\s,\]}]|<<\s*:|\?(?:\s|$)|(?:~|[Nn]ull|NULL)?\s*:(?:\s|$))|[\]}][ \t]*:(?:\s|$)|__proto__/m;

/** No deeper than the full path allows (it reports deeper data); scalars count as a level. */
function withinDepth(value: object, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  for (const child of Object.values(value)) {
    if (typeof child === 'object' && child !== null) {
      if (!withinDepth(child as object, depth + 1)) return false;
    } else if (depth + 1 > MAX_DEPTH) return false;
  }
  return true;
}

/**
 * Where a suite's `suite:`, `service:` and `model:` values and each of its cases start,
 * found by scanning the raw lines — what a successfully read suite keeps (`location`,
 * `service_location`, `model_location`) for later messages, without a position tree. It
 * reads only the layout people write: top-level `suite: name` and `cases:` keys, and one
 * block list of cases under `cases:` (none: a suite of tables). On any other layout it
 * returns null and the caller takes positions from the full path (`yaml`). The caller
 * checks the count against the data; the loader fuzz test holds every answer to the
 * full path's.
 */
export interface SuiteLayout {
  suite: Position;
  /** The top-level `service:` value, when the suite names one on its own line. */
  service: Position | null;
  /** The top-level `model:` value, when the suite names one on its own line. */
  model: Position | null;
  cases: Position[];
}

export function scanSuiteLayout(source: string): SuiteLayout | null {
  const lines = source.split('\n');
  let suite: Position | null = null;
  let service: Position | null = null;
  let model: Position | null = null;
  let casesLine = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('suite:')) {
      if (suite || !/^suite:(?:[ \t\r]|$)/.test(line)) return null;
      const at = firstContent(line, 'suite:'.length);
      if (at < 0) return null;
      suite = { line: i + 1, column: at + 1 };
    } else if (line.startsWith('service:')) {
      const at = firstContent(line, 'service:'.length);
      if (service || at < 0) return null;
      service = { line: i + 1, column: at + 1 };
    } else if (line.startsWith('model:')) {
      const at = firstContent(line, 'model:'.length);
      if (model || at < 0) return null;
      model = { line: i + 1, column: at + 1 };
    } else if (line.startsWith('cases:')) {
      if (casesLine >= 0 || firstContent(line, 'cases:'.length) >= 0) return null;
      casesLine = i;
    }
  }
  if (!suite) return null;
  if (casesLine < 0) return { suite, service, model, cases: [] };
  const cases: Position[] = [];
  let indent = -1;
  for (let i = casesLine + 1; i < lines.length; i++) {
    const line = lines[i]!;
    const start = firstContent(line, 0);
    if (start < 0) continue; // blank or comment only
    if (line.slice(0, start).includes('\t')) return null;
    if (indent < 0) indent = start;
    if (start < indent) break;
    if (start > indent) continue; // inside a case
    if (line[start] !== '-') {
      if (indent === 0) break; // the next top-level key
      return null;
    }
    if (line[start + 1] !== ' ') return null;
    const item = firstContent(line, start + 1);
    if (item < 0 || '-[?|>'.includes(line[item]!)) return null;
    cases.push({ line: i + 1, column: item + 1 });
  }
  return { suite, service, model, cases };
}

/** Index of the first character after `from` that is neither blank nor a comment; -1 if none. */
function firstContent(line: string, from: number): number {
  for (let i = from; i < line.length; i++) {
    const c = line[i]!;
    if (c === '#') return i === 0 || line[i - 1] === ' ' || line[i - 1] === '\t' ? -1 : i;
    if (c !== ' ' && c !== '\t' && c !== '\r') return i;
  }
  return -1;
}
