import { describe, expect, it } from 'vitest';
import { ajv2020Library, ajvLibrary, prefetch, yamlLibrary } from '../../src/util/lazy.js';

describe('lazy libraries', () => {
  it('load the real packages, once', () => {
    expect(typeof yamlLibrary().parseDocument).toBe('function');
    expect(yamlLibrary()).toBe(yamlLibrary());
    expect(typeof ajvLibrary().Ajv).toBe('function');
    expect(typeof ajv2020Library().Ajv2020).toBe('function');
  });
});

describe('prefetch', () => {
  it('starts the load on the first call only and hands out the same promise', async () => {
    let loads = 0;
    const get = prefetch(async () => ++loads);
    const first = get();
    expect(get()).toBe(first);
    expect(await first).toBe(1);
    expect(loads).toBe(1);
  });

  it('reports a failed load where it is awaited, not as an unhandled rejection', async () => {
    const get = prefetch(() => Promise.reject(new Error('module missing')));
    void get(); // an early call nobody awaits (vitest fails the run on an unhandled rejection)
    await new Promise((done) => setTimeout(done, 10));
    await expect(get()).rejects.toThrow('module missing');
  });
});
