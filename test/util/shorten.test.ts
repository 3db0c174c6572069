import { describe, expect, it } from 'vitest';
import { joinWithin, MAX_MESSAGE_CHARS, shorten } from '../../src/util/shorten.js';

describe('shorten', () => {
  it('keeps a text that fits, and cuts one that does not to exactly the bound, saying how much is left out', () => {
    expect(shorten('short', 10)).toBe('short');
    const cut = shorten('x'.repeat(1_000_000), 500);
    expect(cut).toHaveLength(500);
    expect(cut).toBe(`${'x'.repeat(478)}… (+999522 characters)`);
    // The count's digits are counted: 9,999 + one fewer digit leaves room for one more character.
    expect(shorten('y'.repeat(10_020), 40)).toHaveLength(40);
  });

  it('never leaves half of a surrogate pair', () => {
    const cut = shorten('😀'.repeat(1_000), MAX_MESSAGE_CHARS);
    expect(cut.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(cut).toMatch(/^(?:😀)+… \(\+\d+ characters\)$/u);
  });
});

describe('joinWithin', () => {
  it('joins what fits and counts the rest', () => {
    expect(joinWithin(['a', 'b', 'c'], ', ')).toBe('a, b, c');
    const parts = Array.from({ length: 5_000 }, (_, i) => `call_${i}({"city":7}): schema_mismatch`);
    const joined = joinWithin(parts, '; ');
    expect(joined.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    const shown = joined.split('; ').length - 1;
    expect(joined).toMatch(new RegExp(`; … and ${5_000 - shown} more$`));
    // One part longer than the bound is shortened itself.
    const long = joinWithin(['z'.repeat(2_000), 'b'], ', ', 100);
    expect(long).toHaveLength(100);
    expect(long).toMatch(/… \(\+\d+ characters\), … and 1 more$/);
  });
});
