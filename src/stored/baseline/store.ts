import { isAbsolute, join, relative, resolve } from 'node:path';
import { FileError } from '../../util/errors.js';
import type { Baseline, BaselineCase } from './types.js';
import { writeChunksAtomic } from '../../util/atomic.js';
import { READ_LIMITS, readBounded } from '../../util/bounded-read.js';
import { intern } from '../../util/intern.js';
import { isFsError } from '../../yaml/read-text.js';
import { baselineChunks, baselineChunksOf } from './serialize.js';
import { validateBaseline } from './validate.js';

/** What a user can do about a baseline file driftcheck cannot use. */
const BASELINE_REMEDY =
  'fix it by hand, or delete it and re-create it with `driftcheck baseline accept RUN_DIR` (or `run --update-baselines`)';

/** A case's entry in a baseline, or null: own keys only (a case id is user text, "__proto__"). */
export function caseOf<C = BaselineCase>(
  baseline: { cases: Record<string, C> } | null | undefined,
  id: string,
): C | null {
  return baseline && Object.hasOwn(baseline.cases, id) ? baseline.cases[id]! : null;
}

/**
 * `dir/<suite>.json`, for reading or writing a suite's baseline. Throws FileError for a suite
 * id that could name a file outside `dir` (separators, `..`, NUL, absolute or drive paths).
 */
export function baselinePath(dir: string, suite: string): string {
  const unsafe =
    suite === '' ||
    suite === '.' ||
    suite === '..' ||
    /[/\\\0]/.test(suite) ||
    isAbsolute(suite) ||
    /^[A-Za-z]:/.test(suite);
  const file = join(dir, `${suite}.json`);
  // Belt and braces: whatever the checks above missed, the resolved path must stay in dir.
  const rel = relative(resolve(dir), resolve(file));
  if (unsafe || rel.startsWith('..') || isAbsolute(rel) || rel.includes('/') || rel.includes('\\')) {
    throw new FileError(file, `suite id ${JSON.stringify(suite)} cannot be used as a baseline file name`);
  }
  return file;
}

/** Loads a suite's baseline before diffing; null when the suite has none yet. */
export async function readBaseline(dir: string, suite: string): Promise<Baseline | null> {
  const file = baselinePath(dir, suite);
  let bytes: Buffer;
  try {
    bytes = await readBounded(file, READ_LIMITS.baseline);
  } catch (error) {
    return noBaselineOr(file, error);
  }
  return parseBaseline(file, suite, bytes.toString('utf8'));
}

/**
 * What a failure to read a suite's baseline file means: no file there is no baseline yet
 * (null); a failure of the file system is a FileError saying so; any other error (a
 * DriftcheckError already worded, or a bug, which must not pass as "cannot read") is thrown
 * as it is.
 */
export function noBaselineOr(file: string, error: unknown): null {
  if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') return null;
  // A DriftcheckError (already worded) carries no system call: it passes as it is, as a bug does.
  if (!isFsError(error)) throw error;
  throw new FileError(file, `cannot read the baseline: ${(error as Error).message}`, { cause: error });
}

/** A baseline file's text, parsed, checked against its shape and its suite; errors name the file and what to do. */
export function parseBaseline(file: string, suite: string, text: string): Baseline {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new FileError(
      file,
      `the baseline is not valid JSON (${(error as Error).message}); ${BASELINE_REMEDY}`,
      {
        cause: error,
      },
    );
  }
  const checked = validateBaseline(json);
  if ('error' in checked) throw new FileError(file, `the baseline ${checked.error}; ${BASELINE_REMEDY}`);
  if (checked.value.suite !== suite) {
    throw new FileError(
      file,
      `the baseline belongs to suite "${checked.value.suite}", not "${suite}"; ${BASELINE_REMEDY}`,
    );
  }
  return shareRepeated(checked.value);
}

/**
 * A baseline is held for the whole run, and most of its entries repeat one another: the
 * same model ids (JSON.parse gives each entry its own copy) and the same list of check
 * outcomes. One copy of each: a 100,000-case run with baselines peaked at 281–293 MB
 * instead of 297–308. Shared check lists are frozen; nothing changes a baseline once read.
 */
function shareRepeated(baseline: Baseline): Baseline {
  const lists = new Map<string, BaselineCase['checks']>();
  for (const entry of Object.values(baseline.cases)) {
    entry.requested_model = intern(entry.requested_model);
    if (entry.model !== null) entry.model = intern(entry.model);
    if (entry.finish_reason !== null) entry.finish_reason = intern(entry.finish_reason);
    const key = checksKey(entry.checks);
    if (key === null) continue;
    const known = lists.get(key);
    if (known) entry.checks = known;
    else if (lists.size < 1024) lists.set(key, Object.freeze(entry.checks) as BaselineCase['checks']);
  }
  return baseline;
}

/** `contains:true|regex:false` for a list of plain `{type, pass}` outcomes; null for anything else. */
function checksKey(checks: readonly unknown[]): string | null {
  let key = '';
  for (const check of checks) {
    const c = check as Record<string, unknown>;
    if (typeof c.type !== 'string' || typeof c.pass !== 'boolean' || Object.keys(c).length !== 2) return null;
    key += `${c.type}:${c.pass}|`;
  }
  return key;
}

/** Writes `dir/<suite>.json` atomically in its canonical, review-friendly form; returns the path. */
export function writeBaseline(dir: string, baseline: Baseline): Promise<string> {
  return writeBaselineChunks(dir, baseline.suite, () => baselineChunks(baseline));
}

/**
 * writeBaseline for a baseline that is not one object (baselineChunksOf: a head, ids in
 * file order, each case's text asked for as it is written). Only the file system's errors
 * are "cannot write the baseline"; one from where the cases come from passes as it is.
 */
export function writeBaselineOf(
  dir: string,
  head: Omit<Baseline, 'cases'>,
  ids: readonly string[],
  textOf: (id: string) => string | Promise<string>,
): Promise<string> {
  return writeBaselineChunks(dir, head.suite, () => baselineChunksOf(head, ids, textOf));
}

async function writeBaselineChunks(
  dir: string,
  suite: string,
  chunks: () => AsyncIterable<string>,
): Promise<string> {
  const file = baselinePath(dir, suite);
  try {
    await writeChunksAtomic(file, chunks);
  } catch (error) {
    if (!isFsError(error)) throw error;
    throw new FileError(file, `cannot write the baseline: ${(error as Error).message}`, { cause: error });
  }
  return file;
}
