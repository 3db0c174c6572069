import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LockedError } from '../../src/util/errors.js';
import { LOCK_FILE, lockFolder, parseHolder } from '../../src/util/lock.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'driftcheck-lock-'));
  file = join(dir, LOCK_FILE);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const holder = (pid: number, host = hostname()) =>
  `${JSON.stringify({ pid, hostname: host, started_at: '2026-11-24T04:00:00.000Z' })}\n`;

/** The pid of a process that has run and exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((done) => child.once('exit', done));
  return child.pid!;
}

describe('folder lock', () => {
  it('holds the folder until released; a second taker is refused with exit 2, naming the holder', async () => {
    const lock = await lockFolder(dir, { what: 'run folder x' });
    expect(parseHolder(await readFile(file, 'utf8'))).toMatchObject({
      pid: process.pid,
      hostname: hostname(),
    });
    const refused = await lockFolder(dir, { what: 'run folder x' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LockedError);
    expect(refused).toMatchObject({ code: 'locked', exitCode: 2 });
    expect((refused as Error).message).toMatch(
      new RegExp(`^run folder x is in use by another driftcheck \\(pid ${process.pid} on this host, since `),
    );
    lock.release();
    lock.release(); // idempotent
    expect(existsSync(file)).toBe(false);
    (await lockFolder(dir, { what: 'run folder x' })).release();
  });

  it('waits up to waitMs for a live holder to let go', async () => {
    const first = await lockFolder(dir, { what: 'history' });
    const second = lockFolder(dir, { what: 'history', waitMs: 60_000 });
    setTimeout(() => first.release(), 100);
    const lock = await second;
    expect(existsSync(file)).toBe(true);
    lock.release();
  });

  it('takes over the lock of a process that no longer runs on this host, and says so', async () => {
    const dead = await deadPid();
    await writeFile(file, holder(dead));
    const notes: string[] = [];
    const lock = await lockFolder(dir, { what: 'x', onStale: (note) => notes.push(note) });
    expect(notes).toEqual([`took over ${file}, left by pid ${dead} that is no longer running`]);
    expect(parseHolder(await readFile(file, 'utf8'))?.pid).toBe(process.pid);
    lock.release();
  });

  it("trusts another host's lock, whose pid cannot be checked from here", async () => {
    await writeFile(file, holder(await deadPid(), 'ci-runner-7'));
    await expect(lockFolder(dir, { what: 'x' })).rejects.toThrow(/\(pid \d+ on host ci-runner-7, since/);
  });

  it('an unreadable lock is being written while young, and stale once old', async () => {
    await writeFile(file, '');
    await expect(lockFolder(dir, { what: 'x' })).rejects.toThrow(
      /in use by another driftcheck \(a process that is starting\)/,
    );
    const old = new Date(Date.now() - 60_000);
    await utimes(file, old, old);
    const notes: string[] = [];
    const lock = await lockFolder(dir, { what: 'x', onStale: (n) => notes.push(n) });
    expect(notes).toEqual([`took over ${file}, left by a process that is no longer running`]);
    lock.release();
  });

  it('one taker at a time replaces a stale lock: a takeover in progress is waited for', async () => {
    await writeFile(file, holder(await deadPid()));
    await writeFile(`${file}.takeover`, '');
    const taking = lockFolder(dir, { what: 'x' });
    // The other taker finishes: it removes its guard (here, without taking the lock).
    setTimeout(() => void rm(`${file}.takeover`), 100);
    (await taking).release();
    expect(existsSync(`${file}.takeover`)).toBe(false);
  });

  it('release never removes a lock another process holds now', async () => {
    const lock = await lockFolder(dir, { what: 'x' });
    await writeFile(file, holder(1)); // replaced behind our back
    lock.release();
    expect(await readFile(file, 'utf8')).toBe(holder(1));
  });

  it.each([
    ['not JSON', 'pid 12'],
    ['no pid', JSON.stringify({ hostname: 'h', started_at: '2026-11-24T04:00:00Z' })],
    ['a pid that is not one', JSON.stringify({ pid: -1, hostname: 'h', started_at: '2026-11-24T04:00:00Z' })],
    [
      'control bytes in the host',
      JSON.stringify({ pid: 12, hostname: 'h\u001b]0;x\u0007', started_at: '2026-11-24T04:00:00Z' }),
    ],
    ['no date', JSON.stringify({ pid: 12, hostname: 'h', started_at: 'yesterday' })],
  ])('reads %s as no holder (its text would reach the terminal)', (_, raw) => {
    expect(parseHolder(raw)).toBeNull();
  });
});
