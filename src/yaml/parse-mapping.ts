import { yamlLibrary } from '../util/lazy.js';
import type { Diagnostic, Validated } from '../util/errors.js';
import { readFast } from './fast-read.js';
import { MAX_ALIAS_COUNT, MAX_FILE_BYTES } from '../util/limits.js';
import { locate, type Position } from './locate.js';
import { ownStrings } from './own-strings.js';
import { findNonPlainNodes } from './plain-data.js';
import { describeSyntaxError } from './syntax-error.js';

/** A parsed YAML file whose root is a mapping, and a way to point at its nodes. */
export interface YamlMapping {
  file: string;
  data: Record<string, unknown>;
  /**
   * Where the value at a JSON Pointer (`/cases/0/id`) starts, or with `key: true` its key;
   * the deepest node reached when the path cannot be walked to the end.
   */
  locate(pointer: string, options?: { key?: boolean }): Position;
}

/** Which YAML reader to use: `auto` tries the fast reader first; `full` is the reference (tests compare them). */
export type YamlEngine = 'auto' | 'full';

/**
 * Reads a suite or config and validates it with `check`. The fast reader (fast-read.ts:
 * js-yaml's `load`, plain YAML only, positions from the raw lines) is tried first; when it
 * declines the file, or `check` needs a position it does not have or finds any problem,
 * the file is read again on the full path (`yaml`) and checked there, so every diagnostic
 * comes from the full path and reads exactly the same either way.
 */
export function readYamlMapping<T>(
  text: string,
  file: string,
  what: string,
  expectedKeys: string,
  check: (yaml: YamlMapping) => Validated<T>,
  engine: YamlEngine = 'auto',
): Validated<T> {
  // Oversized and binary text is refused outright below, whatever a parser would make of it.
  if (engine === 'auto' && text.length <= MAX_FILE_BYTES && !text.includes('\u0000')) {
    const fast = readFast(normaliseBreaks(text), file, check, () => {
      // Read whole only when a position is asked of a file the fast path has read.
      const parsed = parseYamlMapping(text, file, what, expectedKeys);
      if (parsed.errors) throw new Error(`${file}: read on the fast path, refused on the full one`);
      return parsed.value.locate;
    });
    if (fast) return fast;
  }
  const parsed = parseYamlMapping(text, file, what, expectedKeys);
  return parsed.errors
    ? { errors: parsed.errors }
    : check({ ...parsed.value, data: ownStrings(parsed.value.data) });
}

/** YAML allows a lone CR as a line break (old Mac files); the parsers do not. Same length, same offsets. */
export function normaliseBreaks(text: string): string {
  return text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
}

export type ParsedYaml =
  { value: YamlMapping; errors?: undefined } | { value?: undefined; errors: Diagnostic[] };

/**
 * Parses one YAML document that must be a mapping (a suite or a config), turning every
 * syntax or safety problem into a positioned diagnostic instead of an exception.
 * `what` names the file's role in messages ("suite", "config").
 */
export function parseYamlMapping(text: string, file: string, what: string, expectedKeys: string): ParsedYaml {
  const { isMap, LineCounter, parseAllDocuments } = yamlLibrary();
  const lineCounter = new LineCounter();
  const here = (offset: number, message: string, hint?: string): Diagnostic => {
    // Before parsing the counter knows no lines and would say 0:0; diagnostics are 1-based.
    const { line, col } =
      lineCounter.lineStarts.length > 0 ? lineCounter.linePos(offset) : { line: 1, col: 1 };
    return { file, line, column: col, message, ...(hint ? { hint } : {}) };
  };
  // The loader checks bytes on disk; this guards callers that pass text directly.
  if (text.length > MAX_FILE_BYTES) {
    return {
      errors: [
        here(
          0,
          `file is too large (the limit is ${MAX_FILE_BYTES} bytes)`,
          'split it into smaller files — suites and configs are meant to be read by people',
        ),
      ],
    };
  }
  if (text.includes('\u0000')) {
    return { errors: [here(0, 'binary file (contains NUL bytes)', 'point driftcheck at a YAML text file')] };
  }
  const source = normaliseBreaks(text);
  const parsed = parseAllDocuments(source, {
    lineCounter,
    prettyErrors: false,
    merge: true,
    uniqueKeys: true,
  });
  const docs = (Array.isArray(parsed) ? parsed : []).filter(
    (d) => d.contents !== null || d.errors.length > 0,
  );
  const errors: Diagnostic[] = [];
  for (const d of docs) {
    for (const e of d.errors) {
      const problem = describeSyntaxError(source, e);
      errors.push(here(problem.offset, problem.message, problem.hint));
    }
  }
  if (errors.length > 0) return { errors };
  const [doc, second] = docs;
  if (second) {
    return {
      errors: [
        here(
          second.range[0],
          `a ${what} file holds one YAML document, this one has ${docs.length}`,
          "split it into separate files, or remove the '---' line",
        ),
      ],
    };
  }
  if (!doc || !isMap(doc.contents)) {
    const at = doc?.contents?.range?.[0] ?? 0;
    return {
      errors: [here(at, `a ${what} must be a YAML mapping (key: value lines)`, `start with ${expectedKeys}`)],
    };
  }
  const nonPlain = findNonPlainNodes(doc);
  if (nonPlain.length > 0) return { errors: nonPlain.map((n) => here(n.offset, n.message, n.hint)) };
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      errors: [
        here(
          0,
          `YAML aliases expand too far: ${message}`,
          'use fewer anchors/aliases (*name); write the values out',
        ),
      ],
    };
  }
  return {
    value: {
      file,
      data: data as Record<string, unknown>,
      locate: (pointer, options) => locate(doc, lineCounter, pointer, options),
    },
  };
}
