import { describe, expect, it } from 'vitest';
import { Bail } from '../../src/run/bail.js';
import type { SampleResult } from '../../src/stored/journal/records.js';

const sample = (c: string, status: SampleResult['status']) =>
  ({ suite: 's', case: c, status }) as SampleResult;

describe('--bail N counts a case once its verdict can no longer be a pass', () => {
  it('a case sampled once counts when its sample fails or errors', () => {
    const bail = new Bail(2);
    for (const c of ['a', 'b', 'c']) bail.plan('s', c, 1, 1);
    bail.add(sample('a', 'pass'));
    bail.add(sample('b', 'fail'));
    expect(bail.reached).toBe(false);
    bail.add(sample('c', 'error'));
    expect(bail.reached).toBe(true);
    expect(bail.bailed()).toEqual({ limit: 2, failing: 2 });
  });

  it('a repeated case: a failing sample among passing ones is noise; fewer than half able to pass counts', () => {
    const bail = new Bail(1);
    bail.plan('s', 'noisy', 4, 4);
    for (const status of ['fail', 'pass', 'pass', 'pass'] as const) bail.add(sample('noisy', status));
    expect(bail.reached).toBe(false);
    bail.plan('s', 'bad', 4, 4);
    bail.add(sample('bad', 'fail'));
    bail.add(sample('bad', 'fail'));
    // 2 of 4 may still pass: half meets the expectations.
    expect(bail.reached).toBe(false);
    bail.add(sample('bad', 'fail'));
    expect(bail.bailed()).toEqual({ limit: 1, failing: 1 });
  });

  it('an errored sample makes a repeated case an error at once; a case counts once', () => {
    const bail = new Bail(2);
    bail.plan('s', 'e', 10, 10);
    bail.add(sample('e', 'error'));
    bail.add(sample('e', 'error'));
    expect(bail.bailed()).toBeNull();
  });

  it('a repeat: auto case counts when its test stops short of half, or at its first error', () => {
    const bail = new Bail(2);
    bail.plan('s', 'auto1', null, 10);
    bail.plan('s', 'auto2', null, 10);
    bail.add(sample('auto1', 'fail'));
    bail.caseDone('s', 'auto1', { pass: 6, total: 10 });
    expect(bail.reached).toBe(false);
    bail.caseDone('s', 'auto2', { pass: 4, total: 10 });
    bail.plan('s', 'auto3', null, 10);
    bail.add(sample('auto3', 'error'));
    expect(bail.bailed()).toEqual({ limit: 2, failing: 2 });
  });

  it("a case not planned in this session (a resume's, or already done) is not counted", () => {
    const bail = new Bail(1);
    bail.plan('s', 'done', 1, 0);
    bail.add(sample('done', 'fail'));
    expect(bail.reached).toBe(false);
  });
});
