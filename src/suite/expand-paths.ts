import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Diagnostic } from '../util/errors.js';
import { displayPath } from '../yaml/display-path.js';
import { describeFsError } from '../yaml/read-text.js';
import { compareText } from '../util/compare-text.js';

export interface SuiteFile {
  /** Absolute path, for reading. */
  path: string;
  /** How messages and reports name it: relative to cwd when inside it. */
  shown: string;
}

const SUITE_FILE = /\.ya?ml$/i;

/**
 * Turns the paths a user typed into suite files: files as given, folders searched
 * recursively for *.yaml / *.yml (hidden folders and node_modules skipped), each file
 * once, in a stable order. Paths that lead nowhere become diagnostics.
 */
export async function expandSuitePaths(
  paths: string[],
  cwd: string,
): Promise<{ files: SuiteFile[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const byRealPath = new Map<string, SuiteFile>();
  const note = (file: string, message: string, hint: string) =>
    diagnostics.push({ file, line: 1, column: 1, whole_file: true, message, hint });

  for (const given of paths) {
    const absolute = resolve(cwd, given);
    const shown = displayPath(absolute, cwd);
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(absolute)).isDirectory();
    } catch (error) {
      note(
        shown,
        describeFsError(error),
        'check the path: give suite files (.yaml, .yml) or folders of them',
      );
      continue;
    }
    const found = isDirectory ? await walk(absolute, new Set()) : [absolute];
    if (found.length === 0) {
      note(
        shown,
        'no suites in this folder (no .yaml or .yml files)',
        'add a suite file, or pass another folder',
      );
    }
    for (const file of found) {
      const real = await realpath(file).catch(() => file);
      if (!byRealPath.has(real)) byRealPath.set(real, { path: file, shown: displayPath(file, cwd) });
    }
  }
  const files = [...byRealPath.values()].sort((a, b) => compareText(a.shown, b.shown));
  return { files, diagnostics };
}

async function walk(dir: string, visited: Set<string>): Promise<string[]> {
  // Symlinked folders can loop; remember where we have been by real path.
  const real = await realpath(dir).catch(() => dir);
  if (visited.has(real)) return [];
  visited.add(real);
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => compareText(a.name, b.name))) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const full = join(dir, entry.name);
    const info = entry.isSymbolicLink() ? await stat(full).catch(() => null) : entry;
    if (info?.isDirectory()) out.push(...(await walk(full, visited)));
    else if (info?.isFile() && SUITE_FILE.test(entry.name)) out.push(full);
  }
  return out;
}
