import { describe, expect, it } from 'vitest';
import { groupDigits } from '../../src/util/numbers.js';

describe('groupDigits', () => {
  it.each([0, 7, 999, 1000, 12345, 100000, 1234567, -1234, 9007199254740991])(
    '%d reads as toLocaleString("en-US") would',
    (n) => {
      expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
    },
  );
});
