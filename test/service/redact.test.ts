import { describe, expect, it } from 'vitest';
import { createRedactor, redactBody, redactHeaders } from '../../src/service/redact.js';
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

describe('redactBody', () => {
  const redactor = createRedactor([routerKey]);
  it('hands back the JSON it had to parse when escapes hid nothing, so the reader does not parse twice', () => {
    const out = redactBody(redactor, '{"content":"caf\\u00e9"}');
    expect(out).toEqual({
      text: '{"content":"caf\\u00e9"}',
      redacted: false,
      json: { value: { content: 'café' } },
    });
  });
  it('never hands back a parse that holds a secret spelled in escapes: the body is rewritten and read again', () => {
    const hidden = JSON.stringify({ content: routerKey }).replace(
      routerKey[0]!,
      `\\u00${routerKey.charCodeAt(0).toString(16)}`,
    );
    const out = redactBody(redactor, hidden);
    expect(out.redacted).toBe(true);
    expect(out.json).toBeUndefined();
    expect(out.text).not.toContain(routerKey.slice(1, 13));
  });
});

describe('redactHeaders', () => {
  const redactor = createRedactor([routerKey, directKey]);

  it('hands back the same headers when none holds a secret, and finds a secret again and again', () => {
    const headers = { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'], empty: undefined };
    for (let i = 0; i < 3; i++)
      expect(redactHeaders(redactor, headers)).toEqual({ headers, redacted: false });
    expect(redactHeaders(redactor, headers).headers).toBe(headers);
    for (let i = 0; i < 3; i++) expect(redactor.finds(`x ${directKey} y`)).toBe(true);
    expect(redactor.finds('clean')).toBe(false);
  });

  it('replaces a secret in a single value and in a list of values', () => {
    const headers = { 'x-echo': `Bearer ${routerKey}`, 'set-cookie': ['a=1', `k=${directKey}`], plain: 'ok' };
    const out = redactHeaders(redactor, headers);
    expect(out.redacted).toBe(true);
    expect(out.headers).toEqual({
      'x-echo': 'Bearer [REDACTED]',
      'set-cookie': ['a=1', 'k=[REDACTED]'],
      plain: 'ok',
    });
  });
});
