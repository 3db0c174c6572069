import { describe, expect, it } from 'vitest';
import { createRedactor, redactHeaders } from '../../src/service/redact.js';
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

describe('a secret spelled in JSON escapes', () => {
  const redactor = createRedactor([routerKey]);
  const u = (ch: string, upper = false) => {
    const h = ch.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? h.toUpperCase() : h}`;
  };

  it.each([
    ['its first letter escaped', `${u(routerKey[0]!)}${routerKey.slice(1)}`],
    ['every character escaped', [...routerKey].map((c) => u(c)).join('')],
    [
      'one escape in the middle, upper-case hex',
      `${routerKey.slice(0, 20)}${u(routerKey[20]!, true)}${routerKey.slice(21)}`,
    ],
  ])('is replaced whole at every layer of JSON in JSON: %s', (_name, spelled) => {
    // Layer 1: a body's string; 2: tool-call arguments inside it; 3: JSON in a string of those.
    const layer1 = `{"content":"${spelled}"}`;
    const layer2 = JSON.stringify({ arguments: layer1 });
    const layer3 = JSON.stringify({ arguments: JSON.stringify({ note: layer1 }) });
    expect(redactor.redact(layer1)).toEqual({ text: '{"content":"[REDACTED]"}', redacted: true });
    const two = redactor.redact(layer2);
    expect(JSON.parse(JSON.parse(two.text).arguments)).toEqual({ content: '[REDACTED]' });
    const three = redactor.redact(layer3);
    expect(JSON.parse(JSON.parse(JSON.parse(three.text).arguments).note)).toEqual({
      content: '[REDACTED]',
    });
    // Text that is not JSON (arguments cut short) is covered alike.
    expect(redactor.redact(`{"city":"${spelled}`).text).toBe('{"city":"[REDACTED]');
    expect(redactor.finds(layer2)).toBe(true);
  });

  it('scans a body of backslashes once: an escaped first character is looked for from the start of a run only', () => {
    // 8 MB of backslashes with one escape: tried at every backslash, a scan took hours.
    const run = `{"c":"${'\\\\'.repeat(4_000_000)}\\u0041"}`;
    expect(redactor.redact(run)).toEqual({ text: run, redacted: false });
    // A key in clear after an escaped backslash, and one escaped after it, are still found.
    expect(redactor.redact(`"\\\\${routerKey}"`).text).toBe('"\\\\[REDACTED]"');
    expect(redactor.redact(`"\\\\${u(routerKey[0]!)}${routerKey.slice(1)}"`).text).toBe('"[REDACTED]"');
  });

  it('leaves escapes that spell something else as they are', () => {
    const text = `{"content":"caf\\u00e9 ${routerKey.slice(0, 20)}\\u0041${routerKey.slice(21)}"}`;
    expect(redactor.redact(text)).toEqual({ text, redacted: false });
    expect(redactor.finds(text)).toBe(false);
  });

  it('finds a key with a slash written `\\/`, and one whose characters are all plain', () => {
    const slashed = createRedactor(['abc/def/ghi-123']);
    expect(slashed.redact('"abc\\/def\\\\/ghi-123"').text).toBe('"[REDACTED]"');
    expect(slashed.redact('"abc/def/ghi-123"').text).toBe('"[REDACTED]"');
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
