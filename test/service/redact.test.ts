import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/service/redact.js';
import { directKey, routerKey } from './helpers.js';

describe('createRedactor', () => {
  it('replaces every occurrence of every secret and says so', () => {
    const redactor = createRedactor([routerKey, directKey]);
    const text = `a ${routerKey} b ${directKey} c ${routerKey}`;
    expect(redactor.redact(text)).toEqual({ text: 'a [REDACTED] b [REDACTED] c [REDACTED]', redacted: true });
  });

  it('leaves clean text untouched', () => {
    expect(createRedactor([routerKey]).redact('nothing here')).toEqual({
      text: 'nothing here',
      redacted: false,
    });
  });

  it('treats regex characters in secrets literally', () => {
    const redactor = createRedactor(['a.b*c+d?e(f)']);
    expect(redactor.redact('xa.b*c+d?e(f)y aXbbcde')).toEqual({
      text: 'x[REDACTED]y aXbbcde',
      redacted: true,
    });
  });

  it('replaces a longer secret whole even when a shorter one is inside it', () => {
    const redactor = createRedactor(['secret-12', 'secret-12-and-more']);
    expect(redactor.redact('secret-12-and-more').text).toBe('[REDACTED]');
  });

  it('finds a secret as a JSON string spells it (a quote or backslash in it escaped)', () => {
    const secret = 'pa"ss\\word-1234';
    const redactor = createRedactor([secret]);
    expect(redactor.redact(JSON.stringify({ echo: secret })).text).toBe('{"echo":"[REDACTED]"}');
    expect(redactor.redact(secret).text).toBe('[REDACTED]');
  });

  it('ignores secrets shorter than 8 characters and is inactive with none left', () => {
    const redactor = createRedactor(['short', '']);
    expect(redactor.active).toBe(false);
    expect(redactor.redact('short').redacted).toBe(false);
    expect(createRedactor([routerKey]).active).toBe(true);
  });
});
