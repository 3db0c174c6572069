import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Spill } from '../../src/fold/spill.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'driftcheck-spill-'));
  dirs.push(dir);
  return dir;
}

const collect = async <T>(values: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const v of values) out.push(v);
  return out;
};

describe('Spill', () => {
  it('holds a few values in memory and touches no file', async () => {
    const dir = await scratch();
    const spill = new Spill<{ n: number }>(dir, 10);
    for (let n = 0; n < 10; n++) spill.put(n, { n });
    expect(await readdir(dir)).toEqual([]);
    expect(await collect(spill.read([3, 99, 0]))).toEqual([{ n: 3 }, undefined, { n: 0 }]);
  });

  it('holds none when more values are expected than it holds: they go to disk from the first', async () => {
    const dir = await scratch();
    const within = new Spill<{ n: number }>(dir, 10, 10);
    within.put(0, { n: 0 });
    expect(within.heldValues()?.get(0)).toEqual({ n: 0 });
    const past = new Spill<{ n: number }>(dir, 10, 11);
    past.put(0, { n: 0 });
    expect(past.heldValues()).toBeNull();
    expect(await collect(past.read([0]))).toEqual([{ n: 0 }]);
    await past.discard();
  });

  it('moves values to disk past its hold and reads them back in any order, large and small, unicode too', async () => {
    const dir = await scratch();
    const spill = new Spill<{ n: number; text: string }>(dir, 2);
    // Some large values, one past what a place packs into one number (2 MiB).
    const text = (n: number) =>
      n === 1500
        ? `${'y'.repeat(2_200_000)} ${n}`
        : n % 97 === 0
          ? `Grüße ${'x'.repeat(800_000)} 世界 ${n}`
          : `row ${n} — ✓`;
    const keys = Array.from({ length: 3_000 }, (_, n) => n);
    // Put out of order: a key past the places written so far widens them.
    for (const n of [...keys.slice(1500), ...keys.slice(0, 1500)]) spill.put(n, { n, text: text(n) });
    // A second value for a key replaces the first (the large one, too, becomes small).
    spill.put(5, { n: 5, text: 'again' });
    spill.put(1500, { n: 1500, text: 'small now' });
    expect((await readdir(dir)).filter((n) => n.endsWith('.spill'))).toHaveLength(1);
    const order = [...keys].reverse();
    order.splice(10, 0, 5000, 3000);
    const read = await collect(spill.read(order));
    expect(read.splice(10, 2)).toEqual([undefined, undefined]);
    expect(read).toEqual(
      [...keys].reverse().map((n) => ({ n, text: n === 5 ? 'again' : n === 1500 ? 'small now' : text(n) })),
    );
    await spill.discard();
    expect(await readdir(dir)).toEqual([]);
  });

  it('reads values back in an order far from the one they were put in (ids sorted as text, shuffled)', async () => {
    const dir = await scratch();
    const N = 20_000;
    const value = (n: number) => ({ n, text: `case-${n} ${'z'.repeat(n % 300)}` });
    const byText = Array.from({ length: N }, (_, n) => n).sort((a, b) =>
      `case-${a}` < `case-${b}` ? -1 : 1,
    );
    // A seeded shuffle: each read's window is taken from wherever the next key asked for is.
    let seed = 7;
    const shuffled = Array.from({ length: N }, (_, n) => n);
    for (let i = N - 1; i > 0; i--) {
      seed = (seed * 16807) % 2147483647;
      const j = seed % (i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    for (const order of [byText, shuffled]) {
      const spill = new Spill<ReturnType<typeof value>>(dir, 100);
      for (let n = 0; n < N; n++) spill.put(n, value(n));
      expect(await collect(spill.read(order))).toEqual(order.map(value));
      await spill.discard();
    }
  });
});
