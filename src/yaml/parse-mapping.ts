import { type Document, isMap, LineCounter, parseAllDocuments } from 'yaml';
import type { Diagnostic } from '../types.js';
import { MAX_ALIAS_COUNT, MAX_FILE_BYTES } from './limits.js';

/** A parsed YAML file whose root is a mapping, with what is needed to point at its nodes. */
export interface YamlMapping {
  file: string;
  data: Record<string, unknown>;
  doc: Document.Parsed;
  lineCounter: LineCounter;
}

export type ParsedYaml =
  { value: YamlMapping; errors?: undefined } | { value?: undefined; errors: Diagnostic[] };

/**
 * Parses one YAML document that must be a mapping (a suite or a config), turning every
 * syntax or safety problem into a positioned diagnostic instead of an exception.
 * `what` names the file's role in messages ("suite", "config").
 */
export function parseYamlMapping(text: string, file: string, what: string, expectedKeys: string): ParsedYaml {
  const lineCounter = new LineCounter();
  const here = (offset: number, message: string, hint?: string): Diagnostic => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col, message, ...(hint ? { hint } : {}) };
  };
  // The loader checks bytes on disk; this guards callers that pass text directly.
  if (text.length > MAX_FILE_BYTES) {
    return { errors: [here(0, `file is too large (the limit is ${MAX_FILE_BYTES} bytes)`)] };
  }
  if (text.includes('\u0000')) {
    return { errors: [here(0, 'binary file (contains NUL bytes)', 'point driftcheck at a YAML text file')] };
  }
  const parsed = parseAllDocuments(text, { lineCounter, prettyErrors: false, merge: true, uniqueKeys: true });
  const docs = (Array.isArray(parsed) ? parsed : []).filter(
    (d) => d.contents !== null || d.errors.length > 0,
  );
  const errors: Diagnostic[] = [];
  for (const d of docs) {
    for (const e of d.errors)
      errors.push(here(e.pos[0], `YAML syntax error: ${e.message}`, yamlHint(e.code)));
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
  return { value: { file, data: data as Record<string, unknown>, doc, lineCounter } };
}

function yamlHint(code: string): string | undefined {
  switch (code) {
    case 'DUPLICATE_KEY':
      return 'remove one of the two keys';
    case 'TAB_AS_INDENT':
      return 'indent with spaces, not tabs';
    case 'BAD_INDENT':
    case 'MISSING_CHAR':
    case 'UNEXPECTED_TOKEN':
      return 'check the indentation and quoting on this line; quote values that contain ": " or start with a special character';
    default:
      return undefined;
  }
}
