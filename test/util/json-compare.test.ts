import { describe, expect, it } from 'vitest';
import { canonicalJson, compareJson, formatJsonChange } from '../../src/util/json-compare.js';

const lines = (a: unknown, b: unknown) => compareJson(a, b).map(formatJsonChange);

describe('compareJson', () => {
  it.each([
    ['key order is ignored', { a: 1, b: { c: 2, d: 3 } }, { b: { d: 3, c: 2 }, a: 1 }, []],
    [
      'a nested value change is listed by path',
      { order: { id: 7, status: 'shipped' } },
      { order: { status: 'pending', id: 7 } },
      ['$.order.status: "shipped" → "pending"'],
    ],
    ['an added key', { a: 1 }, { a: 1, b: [1] }, ['$.b: added [1]']],
    ['a removed key', { a: 1, note: 'x' }, { a: 1 }, ['$.note: removed "x"']],
    ['array items compare by position', [1, 2, 3], [1, 5, 3], ['$[1]: 2 → 5']],
    ['a longer array lists added items', [1], [1, 2, 3], ['$[1]: added 2', '$[2]: added 3']],
    ['a shorter array lists removed items', { xs: [1, 2] }, { xs: [1] }, ['$.xs[1]: removed 2']],
    ['reordered arrays differ (order is meaning)', [1, 2], [2, 1], ['$[0]: 1 → 2', '$[1]: 2 → 1']],
    ['a type change is one change', { a: { b: 1 } }, { a: [1] }, ['$.a: {"b":1} → [1]']],
    ['number vs string', { n: 1 }, { n: '1' }, ['$.n: 1 → "1"']],
    ['keys that are not identifiers are bracketed', { 'a b': 1 }, { 'a b': 2 }, ['$["a b"]: 1 → 2']],
    ['equal scalars at the root', 'x', 'x', []],
    ['null vs object', null, {}, ['$: null → {}']],
  ])('%s', (_name, a, b, expected) => {
    expect(lines(a, b)).toEqual(expected);
  });

  it('cuts long values in change lines', () => {
    const [line] = lines({ t: 'a'.repeat(100) }, { t: 'b' });
    expect(line).toMatch(/^\$\.t: "a{39}… → "b"$/);
  });

  it('treats "__proto__" from JSON.parse as an ordinary key', () => {
    const a = JSON.parse('{"__proto__": {"x": 1}}') as unknown;
    const b = JSON.parse('{"__proto__": {"x": 2}}') as unknown;
    expect(lines(a, b)).toEqual(['$.__proto__.x: 1 → 2']);
  });

  it('survives hostile nesting and caps the number of changes', () => {
    const deep = (n: number, leaf: unknown): unknown => {
      let v = leaf;
      for (let i = 0; i < n; i++) v = [v];
      return v;
    };
    const changes = compareJson(deep(5000, 1), deep(5000, 2));
    expect(changes).toHaveLength(1);
    expect(changes[0]!.kind).toBe('changed');
    const many = compareJson(
      Array.from({ length: 1000 }, (_, i) => i),
      Array.from({ length: 1000 }, (_, i) => -i - 1),
    );
    expect(many).toHaveLength(200);
  });

  it('canonicalJson is the same for any key order and formatting', () => {
    expect(canonicalJson(JSON.parse('{ "b": [ {"y":1, "x":2} ], "a": 0 }'))).toBe(
      canonicalJson({ a: 0, b: [{ x: 2, y: 1 }] }),
    );
  });
});
