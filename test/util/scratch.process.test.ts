import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Spill } from '../../src/fold/spill.js';
import { removedIfKilled } from '../../src/util/scratch.js';
import { REPO } from '../helpers/cli.js';

const SCRATCH = pathToFileURL(join(REPO, 'dist/util/scratch.js')).href;

/**
 * A node process that registers `dir` (removedIfKilled), optionally with a graceful
 * listener of its own, says "ready", and waits; it is sent SIGINT once ready.
 */
function killedWhileHolding(
  dir: string,
  graceful: boolean,
): Promise<{ code: number | null; signal: string | null; out: string }> {
  const script = `
    const { removedIfKilled } = await import(${JSON.stringify(SCRATCH)});
    removedIfKilled(${JSON.stringify(dir)});
    ${graceful ? "process.on('SIGINT', () => { console.log('graceful'); process.exit(7); });" : ''}
    console.log('ready');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.includes('ready\n') && !child.killed) child.kill('SIGINT');
  });
  return new Promise((done) => child.on('exit', (code, signal) => done({ code, signal, out })));
}

describe('removedIfKilled', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'driftcheck-scratch-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('removes what it holds when SIGINT ends the process, which still ends as the signal ends it', async () => {
    const dir = await mkdtemp(join(root, 'held-'));
    const ended = await killedWhileHolding(dir, false);
    expect(ended.signal).toBe('SIGINT');
    expect(existsSync(dir)).toBe(false);
  });

  it('stands aside for a command that ends gracefully on the signal (its own cleanup runs)', async () => {
    const dir = await mkdtemp(join(root, 'graceful-'));
    const ended = await killedWhileHolding(dir, true);
    expect(ended.out).toContain('graceful');
    expect(ended.code).toBe(7);
    expect(existsSync(dir)).toBe(true);
  });

  it('listens only while something is held: a spill registers its file, and lets it go when discarded', async () => {
    const before = process.listenerCount('SIGINT');
    const spill = new Spill<{ n: number; text: string }>(root, 0);
    // About 6 MB: past the spill's buffer, so it writes its file.
    for (let n = 0; n < 50_000; n++) spill.put(n, { n, text: 'x'.repeat(100) });
    const values: number[] = [];
    for await (const v of spill.read([0, 49_999])) values.push(v!.n);
    expect(values).toEqual([0, 49_999]);
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    await spill.discard();
    expect(process.listenerCount('SIGINT')).toBe(before);
    const release = removedIfKilled(join(root, 'never-made'));
    expect(process.listenerCount('SIGTERM')).toBeGreaterThan(0);
    release();
    release();
    expect(process.listenerCount('SIGINT')).toBe(before);
  });
});
