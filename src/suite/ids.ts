import type { Diagnostic, SourceLocation } from '../types.js';
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
  const first = new Map<string, { id: string; location: SourceLocation }>();
  const out: Diagnostic[] = [];
  for (const c of cases) {
    const earlier = first.get(c.id.toLowerCase());
    if (!earlier) {
      first.set(c.id.toLowerCase(), c);
      continue;
    }
    const how = earlier.id === c.id ? '' : ` (differs only in letter case from ${show(earlier.id)})`;
    const where =
      earlier.location.file === c.location.file
        ? `on line ${earlier.location.line}`
        : `at ${earlier.location.file}:${earlier.location.line}`;
    out.push({
      ...c.location,
      message: `duplicate case id ${show(c.id)}${how}, first used ${where}`,
      hint: 'case ids must be unique within a suite: they key results and baselines; rename one',
    });
  }
  return out;
}
