import { readFile, stat } from 'node:fs/promises';
import type { Diagnostic } from '../types.js';
import { MAX_FILE_BYTES } from './limits.js';

export type TextRead =
  { text: string; diagnostic?: undefined } | { text?: undefined; diagnostic: Diagnostic };

/** What a text file may be: its size limit, and how messages name what it should be. */
export interface TextFileKind {
  maxBytes: number;
  /** Why files past the limit are refused, and what to do. */
  tooLargeHint: string;
  /** What to name instead of a folder or a binary file. */
  expected: string;
}

/** Suites and configs: hand-written YAML. */
export const YAML_TEXT: TextFileKind = {
  maxBytes: MAX_FILE_BYTES,
  tooLargeHint: 'split it into smaller files — suites and configs are meant to be read by people',
  expected: 'a YAML text file',
};

/**
 * Reads a suite, config or table file as UTF-8 text (a leading byte-order mark dropped),
 * refusing what cannot be one: missing files, folders, files over the kind's size limit,
 * binary or non-UTF-8 content.
 */
export async function readTextFile(
  path: string,
  shownAs: string = path,
  kind: TextFileKind = YAML_TEXT,
): Promise<TextRead> {
  const at = (message: string, hint?: string): TextRead => ({
    diagnostic: { file: shownAs, line: 1, column: 1, message, ...(hint ? { hint } : {}) },
  });
  let size: number;
  try {
    const info = await stat(path);
    if (info.isDirectory()) return at('is a folder, not a file', `name ${kind.expected}`);
    size = info.size;
  } catch (error) {
    return at(describeFsError(error), 'check the path');
  }
  if (size > kind.maxBytes)
    return at(`file is too large (${size} bytes; the limit is ${kind.maxBytes})`, kind.tooLargeHint);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    return at(describeFsError(error), 'check the path and its permissions');
  }
  if (bytes.includes(0))
    return at('binary file (contains NUL bytes)', `point driftcheck at ${kind.expected}`);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return at('file is not valid UTF-8', 're-save it as UTF-8');
  }
}

/** Turns a node:fs error into a short message without a stack or an errno number. */
export function describeFsError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOTDIR') return 'a part of the path is not a folder';
  if (code === 'ELOOP') return 'too many symbolic links';
  return error instanceof Error ? error.message : String(error);
}
