import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DiffOp, wordDiff } from '../../../src/report/html/word-diff.js';

const side = (ops: DiffOp[], keep: -1 | 1) =>
  ops
    .filter(([op]) => op === 0 || op === keep)
    .map(([, t]) => t)
    .join('');

describe('wordDiff', () => {
  it.each<[string, string, DiffOp[]]>([
    ['same text', 'same text', [[0, 'same text']]],
    ['', 'new', [[1, 'new']]],
    ['old', '', [[-1, 'old']]],
    [
      'Refunds within 30 days of purchase.',
      'Refunds within 14 days of purchase, with receipt.',
      [
        [0, 'Refunds within '],
        [-1, '30'],
        [1, '14'],
        [0, ' days of purchase'],
        [1, ', with receipt'],
        [0, '.'],
      ],
    ],
    [
      'a b c',
      'a c',
      [
        [0, 'a '],
        [-1, 'b '],
        [0, 'c'],
      ],
    ],
    [
      'über grün',
      'über blau',
      [
        [0, 'über '],
        [-1, 'grün'],
        [1, 'blau'],
      ],
    ],
  ])('diffs %j → %j by words', (a, b, ops) => {
    expect(wordDiff(a, b)).toEqual(ops);
  });

  it('always rebuilds both texts exactly', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 80 }),
        fc.string({ unit: 'grapheme', maxLength: 80 }),
        (a, b) => {
          const ops = wordDiff(a, b);
          expect(side(ops, -1)).toBe(a);
          expect(side(ops, 1)).toBe(b);
          for (let i = 1; i < ops.length; i++) expect(ops[i]![0]).not.toBe(ops[i - 1]![0]);
        },
      ),
    );
  });

  it('falls back to one deletion and one insertion when the changed middle is too large', () => {
    const a = Array.from({ length: 300 }, (_, i) => `a${i}`).join(' ');
    const b = Array.from({ length: 300 }, (_, i) => `b${i}`).join(' ');
    expect(wordDiff(`start ${a} end`, `start ${b} end`, 1_000)).toEqual([
      [0, 'start '],
      [-1, a],
      [1, b],
      [0, ' end'],
    ]);
  });

  it('survives being embedded as source (the page inlines wordDiff.toString())', () => {
    const rebuilt = new Function(`return ${wordDiff.toString()}`)() as typeof wordDiff;
    expect(rebuilt('one two', 'one three')).toEqual([
      [0, 'one '],
      [-1, 'two'],
      [1, 'three'],
    ]);
  });
});
