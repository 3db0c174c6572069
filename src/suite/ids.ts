import type { Diagnostic, SourceLocation } from '../util/errors.js';
import { widenColumns } from '../util/columns.js';
import { IdTable } from '../util/id-table.js';
import { show } from '../yaml/show.js';

/** Suite and case ids become file names (baselines/<suite>.json), so they are kept to a safe alphabet. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

const ID_HINT =
  "use ASCII letters (a-z, A-Z), digits, '.', '_' and '-', starting with a letter or digit (e.g. refund-window)";

/**
 * Says why an id is unusable, in words a suite author can act on, or returns null
 * when it is fine. Path-like ids get their own message: they would leave baselines/.
 */
export function explainBadId(id: string): { message: string; hint: string } | null {
  if (ID_PATTERN.test(id)) return null;
  const asFileName = 'ids become file names';
  if (id === '') return { message: 'is empty', hint: ID_HINT };
  if (id.includes('\u0000'))
    return { message: 'contains a NUL character', hint: `${asFileName}; ${ID_HINT}` };
  if (id.startsWith('/') || id.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(id)) {
    return { message: 'looks like an absolute path', hint: `${asFileName} inside baselines/; ${ID_HINT}` };
  }
  if (/(^|[\\/])\.\.([\\/]|$)/.test(id)) {
    return {
      message: "contains '..', which would leave the baselines folder",
      hint: `${asFileName}; ${ID_HINT}`,
    };
  }
  if (/[\\/]/.test(id)) return { message: 'contains a path separator', hint: `${asFileName}; ${ID_HINT}` };
  if (id.length > 128)
    return { message: `is too long (${id.length} characters; at most 128)`, hint: ID_HINT };
  // Before the first-character rule: 'été' starts with a letter, just not an ASCII one.
  const foreign = /[^\x00-\x7f]/u.exec(id)?.[0];
  if (foreign)
    return {
      message: `contains ${show(foreign)}, which is not an ASCII character`,
      hint: `${asFileName}, kept portable; ${ID_HINT}`,
    };
  if (!/^[A-Za-z0-9]/.test(id)) return { message: 'must start with a letter or digit', hint: ID_HINT };
  return { message: "contains characters other than ASCII letters, digits, '.', '_' and '-'", hint: ID_HINT };
}

/** explainBadId for the schema's `pattern` messages (`patterns: { suite: explainId, id: explainId }`). */
export const explainId = (id: string) =>
  explainBadId(id) ?? { message: 'is not a valid id', hint: "use ASCII letters, digits, '.', '_' and '-'" };

/**
 * Case ids used twice in one suite, written or generated, reported at the later case and
 * naming the earlier one. Case-insensitive: ids end up in file names, and macOS/Windows
 * file names ignore case.
 */
export function duplicateCaseIds(cases: readonly { id: string; location: SourceLocation }[]): Diagnostic[] {
  const ids = new CaseIds();
  return cases.flatMap((c) => ids.add(c.id, c.location) ?? []);
}

/**
 * The ids of a suite's cases as they stream by, each told whether an earlier case had it
 * (see duplicateCaseIds). Holds per id only its lower-case form (in an IdTable, outside the
 * heap), the line and file of its case (the file as an index: a suite has few), and the id
 * as written when that differs: not the cases. A 100,000-row table's ids as a Map and two
 * arrays took about 10 MB of heap while it was validated.
 */
export class CaseIds {
  private readonly first = new IdTable();
  /** By index: the line and the file of the case that first had the id. */
  private readonly at = { lines: new Int32Array(1024), fileOf: new Int32Array(1024) };
  private readonly files: string[] = [];
  /** Ids whose letter case differs from their key, by their index. */
  private readonly written = new Map<number, string>();

  /** The diagnostic when `id` was used before (at `location`), else null; a new id is remembered. */
  add(id: string, location: SourceLocation): Diagnostic | null {
    const key = id.toLowerCase();
    const known = this.first.size;
    const earlier = this.first.add(key);
    if (earlier === known) {
      if (earlier === this.at.lines.length) widenColumns(this.at, earlier * 2);
      this.at.lines[earlier] = location.line;
      let file = this.files.lastIndexOf(location.file);
      if (file === -1) file = this.files.push(location.file) - 1;
      this.at.fileOf[earlier] = file;
      if (key !== id) this.written.set(earlier, id);
      return null;
    }
    const earlierId = this.written.get(earlier) ?? key;
    const earlierFile = this.files[this.at.fileOf[earlier]!]!;
    const how = earlierId === id ? '' : ` (differs only in letter case from ${show(earlierId)})`;
    const where =
      earlierFile === location.file
        ? `on line ${this.at.lines[earlier]}`
        : `at ${earlierFile}:${this.at.lines[earlier]}`;
    return {
      ...location,
      message: `duplicate case id ${show(id)}${how}, first used ${where}`,
      hint: 'case ids must be unique within a suite: they key results and baselines; rename one',
    };
  }
}
