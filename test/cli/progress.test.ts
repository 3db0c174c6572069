import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/cli/progress.js';
import { truncate } from '../../src/report/terminal.js';
import type { SampleResult } from '../../src/stored/journal/records.js';

const sample = (status: SampleResult['status']) => ({ status }) as SampleResult;

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
    const progress = createProgress({ write: (t) => out.push(t), tty: true, truncate, now: () => now });
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

  it.each([40, 80, 120])(
    'never draws a line wider than a %i-column terminal, whatever the counts',
    (columns) => {
      const out: string[] = [];
      let now = 0;
      const progress = createProgress({
        write: (t) => out.push(t),
        tty: true,
        truncate,
        columns,
        now: () => now,
      });
      progress.start(123_456, 0);
      for (let i = 0; i < 123_456; i += 1) {
        now += 1;
        progress.update(sample(i % 7 === 0 ? 'fail' : i % 11 === 0 ? 'error' : 'pass'));
      }
      const lines = out.filter((t) => t.startsWith('\r')).map((t) => t.slice(1).replace('\u001b[K', ''));
      expect(lines.length).toBeGreaterThan(5);
      for (const line of lines) expect(line.length).toBeLessThan(columns);
      // A narrow terminal leaves the bar out rather than the counts.
      if (columns < 60) expect(lines.at(-1)).toMatch(/^100% 123456\/123456 samples/);
    },
  );
});
