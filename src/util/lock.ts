import { closeSync, fstatSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { FileError, LockedError } from './errors.js';

/** What a lock file says: the process that holds it. */
export interface LockHolder {
  pid: number;
  hostname: string;
  started_at: string;
}

/** A lock this process holds; release() is idempotent, and runs by itself at process exit. */
export interface HeldLock {
  readonly file: string;
  release(): void;
}

export interface LockOptions {
  /** What the lock guards, for the refusal message ("run folder reports/…"). */
  what: string;
  /** How long to wait for a live holder to let go before refusing; 0 (the default) refuses at once. */
  waitMs?: number;
  /** Told (one sentence) when a lock left by a process that no longer runs is taken over. */
  onStale?: (note: string) => void;
}

/** The lock file of a folder: hidden, so CI artifact uploads leave it out by default. */
export const LOCK_FILE = '.driftcheck.lock';

/**
 * Takes the lock of a folder (which must exist): one driftcheck process at a time may
 * resume a run folder or append to a history folder. The lock is a file created with
 * O_EXCL holding pid, host and start. A lock whose pid is no longer running on this host
 * is stale (a `kill -9`, a crash) and taken over; a live one, or one from another host
 * (its pid cannot be checked from here), is waited for up to `waitMs`, then refused with
 * a LockedError naming the holder.
 */
export async function lockFolder(dir: string, options: LockOptions): Promise<HeldLock> {
  const file = join(dir, LOCK_FILE);
  const mine = `${JSON.stringify({ pid: process.pid, hostname: hostname(), started_at: new Date().toISOString() } satisfies LockHolder)}\n`;
  const deadline = Date.now() + (options.waitMs ?? 0);
  for (;;) {
    if (create(file, mine)) return hold(file, mine);
    const found = readLock(file);
    if (found === null) continue; // released between our two looks: try again
    if (isStale(found, file)) {
      const outcome = takeOver(file, found.raw, mine);
      if (outcome === 'taken') {
        options.onStale?.(
          `took over ${file}, left by ${found.holder ? `pid ${found.holder.pid}` : 'a process'} that is no longer running`,
        );
        return hold(file, mine);
      }
      // Another process is taking it over, or just did: look again shortly.
      if (outcome === 'busy') await sleep(POLL_MS);
      continue;
    }
    if (Date.now() >= deadline) throw new LockedError(file, refusal(options.what, file, found.holder));
    await sleep(POLL_MS);
  }
}

const POLL_MS = 50;
/** A lock file without readable content is being written by its creator, unless it is older than this. */
const UNREADABLE_STALE_MS = 10_000;
/** The takeover guard is held for a few system calls; older than this, its holder died holding it. */
const GUARD_STALE_MS = 10_000;
/** Lock files are a line of JSON: anything longer is not one of ours. */
const MAX_LOCK_BYTES = 4096;

/** Locks taken by this process: our own pid in a lock file we do not hold is a stale lock of an earlier process. */
const heldHere = new Set<string>();

/** Creates the lock file with our content; false when it exists. */
function create(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw cannotLock(file, error);
  }
  try {
    writeSync(fd, content);
  } catch (error) {
    // An empty lock file would block others for UNREADABLE_STALE_MS for nothing.
    closeSync(fd);
    rmSync(file, { force: true });
    throw cannotLock(file, error);
  }
  closeSync(fd);
  return true;
}

function hold(file: string, content: string): HeldLock {
  heldHere.add(file);
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    heldHere.delete(file);
    process.off('exit', release);
    try {
      // Only our own lock: never remove one that another process holds now.
      if (readLock(file)?.raw === content) rmSync(file, { force: true });
    } catch {
      // The folder is gone or no longer readable: there is nothing left to free.
    }
  };
  // A process.exit() that skips the caller's finally still frees the folder.
  process.on('exit', release);
  return { file, release };
}

interface FoundLock {
  raw: string;
  /** Null when the content is not a lock holder (being written, or foreign). */
  holder: LockHolder | null;
  ageMs: number;
}

/** The lock file as it is now; null when there is none. */
function readLock(file: string): FoundLock | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw cannotLock(file, error);
  }
  try {
    const buffer = Buffer.alloc(MAX_LOCK_BYTES);
    const raw = buffer.subarray(0, readSync(fd, buffer, 0, MAX_LOCK_BYTES, 0)).toString('utf8');
    return { raw, holder: parseHolder(raw), ageMs: Date.now() - fstatSync(fd).mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** The holder a lock file names, checked field by field: its text reaches the terminal. */
export function parseHolder(raw: string): LockHolder | null {
  try {
    const value = JSON.parse(raw) as Partial<LockHolder>;
    if (
      Number.isSafeInteger(value.pid) &&
      value.pid! > 0 &&
      typeof value.hostname === 'string' &&
      /^[\w.-]{1,255}$/.test(value.hostname) &&
      typeof value.started_at === 'string' &&
      !Number.isNaN(Date.parse(value.started_at))
    )
      return {
        pid: value.pid!,
        hostname: value.hostname,
        started_at: new Date(value.started_at).toISOString(),
      };
  } catch {
    // Not JSON: unreadable.
  }
  return null;
}

function isStale(found: FoundLock, file: string): boolean {
  const { holder } = found;
  if (holder === null) return found.ageMs > UNREADABLE_STALE_MS;
  // Another host's pid cannot be checked from here: trust the lock.
  if (holder.hostname !== hostname()) return false;
  if (holder.pid === process.pid) return !heldHere.has(file);
  return !isRunning(holder.pid);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Replaces a stale lock with ours. Two processes may find the same stale lock at once: a
 * guard file (O_EXCL) lets one of them at a time check that the lock is still the stale
 * one it judged, remove it and create its own — the other then finds a live lock.
 */
function takeOver(file: string, staleRaw: string, mine: string): 'taken' | 'busy' | 'changed' {
  const guard = `${file}.takeover`;
  let fd: number;
  try {
    fd = openSync(guard, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw cannotLock(file, error);
    const age = Date.now() - (statSync(guard, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > GUARD_STALE_MS) rmSync(guard, { force: true });
    return 'busy';
  }
  closeSync(fd);
  try {
    const now = readLock(file);
    if (now !== null && now.raw !== staleRaw) return 'changed';
    if (now !== null) rmSync(file, { force: true });
    return create(file, mine) ? 'taken' : 'changed';
  } finally {
    rmSync(guard, { force: true });
  }
}

function refusal(what: string, file: string, holder: LockHolder | null): string {
  const who = holder
    ? `pid ${holder.pid} on ${holder.hostname === hostname() ? 'this host' : `host ${holder.hostname}`}, since ${holder.started_at}`
    : 'a process that is starting';
  return `${what} is in use by another driftcheck (${who})\n  → wait for it to finish; if that process is gone, delete ${file}`;
}

function cannotLock(file: string, error: unknown): FileError {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  return new FileError(file, `cannot take the lock (${code}); check the folder exists and is writable`, {
    cause: error,
  });
}
