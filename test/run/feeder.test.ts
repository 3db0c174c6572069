import { describe, expect, it } from 'vitest';
import { createFeeder } from '../../src/run/feeder.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('createFeeder', () => {
  it('keeps at most `window` tasks of a lane unfinished, per lane, and finishes everything', async () => {
    const running = new Map<string, number>();
    const peak = new Map<string, number>();
    const done: string[] = [];
    const feeder = createFeeder<string>({
      lane: (item) => item[0]!,
      window: (lane) => (lane === 'a' ? 3 : 1),
      start: async (item) => {
        const lane = item[0]!;
        running.set(lane, (running.get(lane) ?? 0) + 1);
        peak.set(lane, Math.max(peak.get(lane) ?? 0, running.get(lane)!));
        await tick();
        running.set(lane, running.get(lane)! - 1);
        done.push(item);
      },
    });
    for (let i = 0; i < 50; i++) feeder.push(`a${i}`);
    for (let i = 0; i < 5; i++) feeder.push(`b${i}`);
    await feeder.drained();
    expect(done).toHaveLength(55);
    expect(peak.get('a')).toBe(3);
    expect(peak.get('b')).toBe(1);
  });

  it('fills a lane wider than its lookahead from a source, and holds only a bounded queue', async () => {
    const release: (() => void)[] = [];
    let taken = 0;
    function* items() {
      for (let i = 0; i < 5_000; i++) {
        taken++;
        yield i;
      }
    }
    const feeder = createFeeder<number>({
      lane: () => 'x',
      window: () => 300,
      start: () => new Promise<void>((done) => release.push(done)),
      source: items(),
    });
    feeder.start();
    await tick();
    // Every one of the lane's 300 starts: the lookahead counts past what the lane may start.
    expect(release).toHaveLength(300);
    // And no more than the lookahead (128) waits unstarted behind them.
    expect(taken).toBeLessThanOrEqual(300 + 128);
    while (release.length > 0) {
      release.splice(0).forEach((done) => done());
      await tick();
    }
    await feeder.drained();
    expect(taken).toBe(5_000);
  });

  it('waits for items pushed while it runs (adaptive samples)', async () => {
    const done: number[] = [];
    const feeder = createFeeder<number>({
      lane: () => 'x',
      window: () => 2,
      start: async (n) => {
        await tick();
        done.push(n);
        if (n < 5) feeder.push(n + 10);
      },
    });
    for (let i = 0; i < 5; i++) feeder.push(i);
    await feeder.drained();
    expect(done.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 10, 11, 12, 13, 14]);
  });

  it('rejects on an unexpected error instead of hanging, and resolves at once when empty', async () => {
    await expect(
      createFeeder({ lane: () => 'x', window: () => 1, start: async () => {} }).drained(),
    ).resolves.toBeUndefined();
    const feeder = createFeeder<number>({
      lane: () => 'x',
      window: () => 2,
      start: async (n) => {
        await tick();
        if (n === 3) throw new Error('bug');
      },
    });
    for (let i = 0; i < 10; i++) feeder.push(i);
    await expect(feeder.drained()).rejects.toThrow('bug');
  });
});
