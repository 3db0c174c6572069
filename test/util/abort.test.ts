import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { onAbort, sleep } from '../../src/util/abort.js';

describe('onAbort', () => {
  it('puts one listener on a signal however many wait on it, and calls each waiter still waiting', () => {
    const controller = new AbortController();
    const called: number[] = [];
    const releases = Array.from({ length: 50 }, (_, i) => onAbort(controller.signal, () => called.push(i)));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    releases[7]!();
    controller.abort();
    expect(called).toHaveLength(49);
    expect(called).not.toContain(7);
  });

  it('calls a waiter on an already aborted signal, unless released first', async () => {
    const signal = AbortSignal.abort();
    let calls = 0;
    onAbort(signal, () => calls++);
    onAbort(signal, () => calls++)();
    await Promise.resolve();
    expect(calls).toBe(1);
  });
});

describe('sleep', () => {
  it('resolves after its time, and rejects with the reason when the signal aborts first', async () => {
    const controller = new AbortController();
    await sleep(1, controller.signal);
    const pending = sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});
