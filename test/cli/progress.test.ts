import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/cli/progress.js';
import type { CaseResult } from '../../src/types.js';

const sample = (status: CaseResult['status']) => ({ status }) as CaseResult;

describe('createProgress', () => {
  it('in CI prints a plain line at every tenth of a long run, counting failures', () => {
    const lines: string[] = [];
    let now = 0;
    const progress = createProgress({ write: (t) => lines.push(t), tty: false, now: () => now });
    progress.start(200, 0);
    for (let i = 0; i < 200; i++) {
      now += 10;
      progress.update(sample(i % 50 === 0 ? 'fail' : 'pass'));
    }
    progress.finish();
    expect(lines).toHaveLength(10);
    expect(lines.every((l) => l.endsWith('\n') && !l.includes('\r'))).toBe(true);
    expect(lines.at(-1)).toMatch(/^driftcheck: 100% 200\/200 samples · 4 failed · 0 errored · 100\/s\n$/);
  });

  it('stays quiet in CI for a short run', () => {
    const lines: string[] = [];
    const progress = createProgress({ write: (t) => lines.push(t), tty: false });
    progress.start(9, 0);
    for (let i = 0; i < 9; i++) progress.update(sample('pass'));
    expect(lines).toEqual([]);
  });

  it('on a terminal redraws one line at most ten times a second, then ends it', () => {
    const out: string[] = [];
    let now = 0;
    const progress = createProgress({ write: (t) => out.push(t), tty: true, now: () => now });
    progress.start(1000, 0);
    for (let i = 0; i < 1000; i++) {
      now += 1; // 1 ms apart: 1 s in all
      progress.update(sample('pass'));
    }
    progress.finish();
    expect(out.length).toBeGreaterThan(5);
    expect(out.length).toBeLessThanOrEqual(12);
    expect(out.slice(0, -1).every((t) => t.startsWith('\r['))).toBe(true);
    expect(out.at(-2)).toMatch(/\[#{24}\] 100% 1000\/1000/);
    expect(out.at(-1)).toBe('\n');
  });
});
