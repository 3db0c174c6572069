import { describe, expect, it } from 'vitest';
import { renderConsoleSummary } from '../../src/report/console.js';
import { printable } from '../../src/util/printable.js';
import { makeCase, makeReport } from '../report/fixture.js';
import { caseError } from '../baseline/fixtures.js';

const HOSTILE = 'x\u001b]0;pwned\u0007\u001b[2J\u0000\b\u009b2J\u007f\ry';

describe('printable', () => {
  it('escapes every control character but tab and newline, and is idempotent', () => {
    const shown = printable(`${HOSTILE}\ttab\nline\r\nend`);
    expect(shown).toBe(
      'x\\u001b]0;pwned\\u0007\\u001b[2J\\u0000\\u0008\\u009b2J\\u007f\\u000dy\ttab\nline\r\nend',
    );
    expect(printable(shown)).toBe(shown);
  });

  it('leaves text without controls as it is, wide characters and emoji included', () => {
    const text = 'réponse 30 日 ✓ 🙂 — "quoted" \\ back';
    expect(printable(text)).toBe(text);
  });

  it('keeps JSON valid and equal: an escaped control is the same JSON string', () => {
    const json = JSON.stringify({ a: 'del\u007f csi\u009b' });
    expect(JSON.parse(printable(json))).toEqual({ a: 'del\u007f csi\u009b' });
  });
});

describe('the console summary in colour', () => {
  it('holds no escape but its own colours, whatever the cases say', () => {
    const report = makeReport([
      makeCase({
        case: `id${HOSTILE}`,
        model: HOSTILE,
        status: 'error',
        content: null,
        error: caseError('server_error', HOSTILE),
      }),
    ]);
    const out = renderConsoleSummary(report, { color: true, columns: 200 });
    // Strip the colours the console adds itself: nothing raw may remain.
    const own = out.replace(/\u001b\[(?:3[123]|39)m/g, '');
    expect(own).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(own).toContain('server_error (HTTP 500): x\\u001b]0;pwned');
    expect(out).toMatch(/\u001b\[31m✗ support\/idx\\u001b/);
  });
});
