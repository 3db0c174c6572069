import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { compareRuns, type InMemoryRun, viewOf } from '../../src/compare/compare.js';
import { renderCandidateComparison } from '../../src/compare/console.js';
import { fitToTerminal, width, wrapItems } from '../../src/report/terminal.js';
import { makeEntry, reportOf } from '../helpers/entries.js';
import { regressedDrift } from './fixture.js';

describe('width', () => {
  it('counts as string-width does, plain ASCII without loading it: wide, emoji, escapes, controls', () => {
    const texts = [
      '',
      'plain ASCII ~!@#$%^&*()_+{}|:"<>?',
      'café',
      '日本語のテキスト',
      'ok ✅ 👍🏽 family 👨‍👩‍👧',
      '\u001b[31mred\u001b[0m',
      'tab\there',
      'bell\u0007 and DEL\u007f',
      'zero\u200bwidth',
      '3 passed · 1 failed → see report.html … ✓ ✗ — – ≤ ≥ ± × ÷ −',
    ];
    for (const text of texts) expect(width(text), JSON.stringify(text)).toBe(stringWidth(text));
    for (let c = 0; c < 0x250; c++) {
      const text = `a${String.fromCodePoint(c)}b`;
      expect(width(text), `U+${c.toString(16)}`).toBe(stringWidth(text));
    }
  });
});

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

describe('renderCandidateComparison at a terminal width', () => {
  const label = (i: number) => `provider-number-${i}/some-long-model-name-${i}`;
  async function view(candidates: number) {
    const cases = (i: number) =>
      ['refunds/refund-window-for-damaged-goods', 'refunds/greeting'].map((id) =>
        makeEntry(
          { case: id.split('/')[1]!, status: i % 2 ? 'fail' : 'pass' },
          i % 2 ? [regressedDrift()] : [],
        ),
      );
    const runs: InMemoryRun[] = Array.from({ length: candidates }, (_, i) => {
      const report = reportOf(cases(i));
      return {
        label: label(i),
        run: { dir: null, head: { ...report, run: { ...report.run, id: `run-${i}` } }, cases: report.cases },
      };
    });
    return viewOf(await compareRuns({ kind: 'baseline', cases: [] }, runs));
  }

  it('fits 80 columns: the columns share the width, cells wrap inside them, verdict lines wrap at spaces', async () => {
    const v = await view(2);
    const natural = renderCandidateComparison(v);
    expect(Math.max(...natural.split('\n').map(width))).toBeGreaterThan(80);
    const fitted = renderCandidateComparison(v, { columns: 80 }).split('\n');
    for (const line of fitted) expect(width(line), line).toBeLessThanOrEqual(80);
    // Every word of a verdict line is whole on one line: joined back, the line is the verdict.
    for (const c of v.head.candidates) {
      const at = fitted.findIndex((l) => l.startsWith(`${c.label}: `));
      const rest = fitted.slice(at + 1);
      const more = rest.slice(
        0,
        rest.findIndex((l) => !l.startsWith('  ')),
      );
      expect([fitted[at]!, ...more].map((l) => l.trim()).join(' ')).toBe(`${c.label}: ${c.verdict.line}`);
    }
    // A case id too long for its column is broken after its `/`, not cut.
    expect(fitted.some((l) => /│ refunds\/\s+│/.test(l))).toBe(true);
  });

  it('puts the candidates that do not fit in a second table, each column still wide enough to read', async () => {
    const v = await view(6);
    const fitted = renderCandidateComparison(v, { columns: 80 });
    for (const line of fitted.split('\n')) expect(width(line), line).toBeLessThanOrEqual(80);
    // Two tables of three, each headed by its candidates' labels whole (a cell's lines joined).
    const tables = fitted.split(/^┌.*\n/m).slice(1);
    expect(tables).toHaveLength(2);
    const labels = tables.flatMap((t) => {
      const headLines = t.slice(0, t.indexOf('├')).trimEnd().split('\n');
      const cells = headLines.map((l) =>
        l
          .split('│')
          .slice(1, -1)
          .map((c) => c.trim()),
      );
      return cells[0]!.slice(1).map((_, i) => cells.map((row) => row[i + 1]).join(''));
    });
    expect(labels).toEqual(v.head.candidates.map((c) => c.label));
  });
});
