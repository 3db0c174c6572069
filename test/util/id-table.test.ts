import { describe, expect, it } from 'vitest';
import { IdTable } from '../../src/util/id-table.js';

describe('IdTable', () => {
  it('gives each new string the next slot, a known one its own, and finds them again past many growths', () => {
    const table = new IdTable();
    const ids = Array.from({ length: 5000 }, (_, i) => `case-${i.toString(36)}`);
    ids.forEach((id, i) => expect(table.add(id)).toBe(i));
    expect(table.add('case-0')).toBe(0);
    expect(table.add(ids[4321]!)).toBe(4321);
    expect(table.size).toBe(5000);
    for (const [i, id] of ids.entries()) {
      expect(table.slotOf(id)).toBe(i);
      expect(table.at(i)).toBe(id);
    }
    expect([...table]).toEqual(ids);
  });

  it('takes strings past the room reserved for them, and keeps those it had', () => {
    const table = new IdTable();
    table.add('first');
    table.reserve(3);
    table.reserve(1);
    const ids = ['first', ...Array.from({ length: 300 }, (_, i) => `row-${i}`)];
    ids.forEach((id) => table.add(id));
    expect(table.size).toBe(301);
    ids.forEach((id, i) => expect(table.slotOf(id)).toBe(i));
  });

  it('tells apart strings that differ by one character, by length, or only in letter case', () => {
    const table = new IdTable();
    for (const id of ['a', 'ab', 'abc', 'abd', 'ABC', '']) table.add(id);
    expect(['a', 'ab', 'abc', 'abd', 'ABC', ''].map((id) => table.slotOf(id))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(table.slotOf('abcd')).toBe(-1);
    expect(table.slotOf('b')).toBe(-1);
  });

  it('keeps strings beyond ASCII exactly, lone surrogates included', () => {
    const table = new IdTable();
    const odd = ['café', 'ticket-☃', '\ud83d\ude00-emoji', 'lone-\ud800', 'ascii'];
    odd.forEach((id) => table.add(id));
    odd.forEach((id, i) => {
      expect(table.slotOf(id)).toBe(i);
      expect(table.at(i)).toBe(id);
    });
    // 'caf\u00e9' and the two-byte form of the same characters are one string.
    expect(table.slotOf('caf\u00e9')).toBe(0);
    expect(table.slotOf('cafe')).toBe(-1);
  });
});
