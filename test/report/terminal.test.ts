import { describe, expect, it } from 'vitest';
import { fitToTerminal, width, wrapItems } from '../../src/report/terminal.js';

describe('fitToTerminal', () => {
  it('wraps a line that would overflow at spaces, its continuation indented under it', () => {
    const header =
      'driftcheck: 9 cases from 2 suites on the embedded simulator → reports/20261123T035112806Z-62e8';
    const out = fitToTerminal(header, 80).split('\n');
    expect(out.length).toBeGreaterThan(1);
    for (const line of out) expect(width(line)).toBeLessThanOrEqual(80);
    expect(out.slice(1).every((l) => l.startsWith('  '))).toBe(true);
    // Nothing lost, nothing reordered.
    expect(out.map((l) => l.trim()).join(' ')).toBe(header);
  });

  it('keeps a hint indented deeper than its own indentation, and leaves lines that fit alone', () => {
    const text = `driftcheck run: nothing to run\n  → ${'check the pattern '.repeat(6).trim()}\nshort\n`;
    const lines = fitToTerminal(text, 40).split('\n');
    expect(lines[0]).toBe('driftcheck run: nothing to run');
    expect(lines[1]!.startsWith('  → ')).toBe(true);
    expect(lines.slice(2, -2).every((l) => l.startsWith('    '))).toBe(true);
    expect(lines.slice(-2)).toEqual(['short', '']);
    for (const line of lines) expect(width(line)).toBeLessThanOrEqual(40);
  });

  it('passes the progress line, redrawn in place, through unchanged', () => {
    const progress = `\r[${'#'.repeat(24)}] 100% 9/9 samples · 0 failed\u001b[K`;
    expect(fitToTerminal(progress, 80)).toBe(progress);
  });
});

describe('wrapItems', () => {
  it('breaks only between items, each line within the width with its continuation mark', () => {
    const items = ['9 cases', '5 passed', '2 failed', '9 samples', 'cost $0.0000384'];
    const lines = wrapItems(items, 40);
    expect(lines).toEqual(['9 cases · 5 passed · 2 failed ·', '9 samples · cost $0.0000384']);
    for (const columns of [20, 30, 40, 60])
      for (const line of wrapItems(items, columns)) expect(width(line)).toBeLessThanOrEqual(columns);
    expect(wrapItems(items, 200)).toEqual([items.join(' · ')]);
  });
});
