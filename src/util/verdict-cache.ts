import { lstatSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from './atomic.js';
import { READ_LIMITS, readPiecesSync } from './bounded-read.js';
import { sha256 } from './sha256.js';

/**
 * The inputs a command found sound before — users' JSON Schemas and patterns, which take
 * Ajv's compiler and RE2 to judge (about a third of `driftcheck validate suites/demo`'s CPU:
 * with them kept, farm-bench measured 0.71× the CPU) — kept between commands, so an
 * unchanged suite is judged without loading either.
 *
 * Only "sound" is kept: a problem is always worked out again, so its message is today's.
 * An entry is the sha256 of what judged it (this build's stamp, the versions of Node and of
 * the two libraries as installed) with the kind and the input's text: a rebuilt driftcheck, an
 * upgraded Ajv or RE2 or Node judges everything afresh. Without a build stamp (the sources run
 * by a test runner) there is no cache. The file is a cache: unreadable, foreign or missing, it
 * is empty; a write that fails changes nothing but the next command's time.
 */

/** Digests kept, the newest last: a suite's schemas and patterns are tens; many projects' fit. */
const MAX_ENTRIES = 10_000;
/** The file's first line: what it is and its format. */
const HEADER = 'driftcheck verdicts 1';
const DIGEST = /^[0-9a-f]{64}$/;
/** Texts whose digests a process keeps at hand (the rest are hashed again). */
const MAX_KEYS = 1024;

interface Store {
  file: string;
  /** What judges (buildIdentity): worked out on first use (a command that meets no schema reads nothing). */
  identity?: string | null;
  known?: Set<string>;
  added: number;
  /** The digests of the texts met in this process, by kind and text. */
  keys: Map<string, string>;
}

let store: Store | null = null;

/**
 * Where the verdicts are kept: `DRIFTCHECK_CACHE_DIR` (`off` keeps none), else the user's
 * cache folder (`$XDG_CACHE_HOME`, `~/.cache`; `~/Library/Caches` on macOS;
 * `%LOCALAPPDATA%` on Windows), in a `driftcheck` folder.
 */
export function cacheDirOf(env: NodeJS.ProcessEnv): string | null {
  const given = env.DRIFTCHECK_CACHE_DIR;
  if (given !== undefined && given !== '') return given === 'off' ? null : given;
  if (process.platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'driftcheck', 'Cache');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'driftcheck');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'driftcheck');
}

/** Keeps verdicts in `dir` from here on (null: none, the default: a library caller's process keeps none). */
export function useVerdictCache(dir: string | null): void {
  store = dir === null ? null : { file: join(dir, 'verdicts'), added: 0, keys: new Map() };
}

/** Whether `text`, an input of `kind`, was found sound by this same build before. */
export function knownSound(kind: string, text: string): boolean {
  const key = keyOf(kind, text);
  return key !== null && knownOf(store!).has(key);
}

/** Notes that `text`, of `kind`, is sound: kept when the command ends (saveVerdicts). */
export function rememberSound(kind: string, text: string): void {
  const key = keyOf(kind, text);
  if (key === null) return;
  const known = knownOf(store!);
  if (known.has(key)) return;
  known.add(key);
  store!.added++;
}

/** Writes what this command found sound beside what was known, the newest kept; a failure is ignored. */
export async function saveVerdicts(): Promise<void> {
  if (!store || store.added === 0) return;
  const kept = [...knownOf(store)].slice(-MAX_ENTRIES);
  store.added = 0;
  await writeFileAtomic(store.file, `${HEADER}\n${kept.join('\n')}\n`).catch(() => {});
}

function keyOf(kind: string, text: string): string | null {
  if (!store) return null;
  if (store.identity === undefined) store.identity = buildIdentity();
  if (store.identity === null) return null;
  // A table's rows repeat their cases' schemas and patterns: each text is hashed once.
  const seen = `${kind}\0${text}`;
  let key = store.keys.get(seen);
  if (key === undefined) {
    if (store.keys.size >= MAX_KEYS) store.keys.clear();
    store.keys.set(seen, (key = sha256(`${store.identity}\0${seen}`)));
  }
  return key;
}

/**
 * This build's stamp (dist/.build-stamp, one level up from this module in dist/util/ or a
 * bundled chunk in dist/bin/: scripts/build-stamp.mjs), Node's version, and Ajv's and RE2's
 * entry files as installed (their size and time: a reinstall judges afresh). Null when any is
 * missing.
 */
function buildIdentity(): string | null {
  try {
    const stamp = readSmall(fileURLToPath(new URL('../.build-stamp', import.meta.url))).trim();
    if (!DIGEST.test(stamp)) return null;
    const require = createRequire(import.meta.url);
    const installed = ['ajv', 're2js'].map((name) => {
      const { size, mtimeMs } = statSync(require.resolve(name));
      return `${name}:${size}:${mtimeMs}`;
    });
    return [stamp, process.version, ...installed].join(' ');
  } catch {
    return null;
  }
}

function knownOf(s: Store): Set<string> {
  if (s.known) return s.known;
  s.known = new Set();
  try {
    const lines = readSmall(s.file).split('\n');
    if (lines[0] === HEADER) for (const line of lines.slice(1)) if (DIGEST.test(line)) s.known.add(line);
  } catch {
    // No file, or not one of ours: nothing is known.
  }
  return s.known;
}

/** A regular file's text within the cache's read limit (a FIFO or a device put there is refused, not waited on). */
function readSmall(file: string): string {
  if (!lstatSync(file).isFile()) throw new Error(`${file} is not a file`);
  return Buffer.concat([...readPiecesSync(file, READ_LIMITS.verdicts)]).toString('utf8');
}
