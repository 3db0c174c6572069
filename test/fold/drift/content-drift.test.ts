import { describe, expect, it } from 'vitest';
import { contentDrift } from '../../../src/fold/drift/answer.js';
import { normalizeContent } from '../../../src/fold/drift/normalize.js';
import { mergeTolerance } from '../../../src/fold/drift/tolerance.js';
import type { ContentNormalization, ContentTolerance } from '../../../src/suite/types.js';

describe('normalizeContent', () => {
  it.each<[string, ContentNormalization[], string]>([
    ['  Refunds\n\tin  30 days. ', ['whitespace'], 'Refunds in 30 days.'],
    ['Refunds IN 30 Days', ['case'], 'refunds in 30 days'],
    ['Straße', ['case'], 'strasse'],
    ['Refunds: 30 days!', ['punctuation'], 'Refunds 30 days'],
    ['Refunds ,in 30 days .', ['punctuation', 'whitespace'], 'Refunds in 30 days'],
    ['  A  b ', [], '  A  b '],
  ])('%j with %j → %j', (text, modes, expected) => {
    expect(normalizeContent(text, modes)).toBe(expected);
  });
});

const rules = (content: ContentTolerance) => mergeTolerance({ content }).content;

describe('contentDrift with a tolerance', () => {
  it.each<[string, string, string, ContentTolerance, 'none' | 'info' | 'warn']>([
    ['identical', 'Refunds in 30 days.', 'Refunds in 30 days.', {}, 'none'],
    ['whitespace only, not normalised', 'Refunds in 30 days.', 'Refunds  in 30 days.\n', {}, 'info'],
    [
      'whitespace only, normalised',
      'Refunds in 30 days.',
      ' Refunds\nin 30 days. ',
      { normalize: ['whitespace'] },
      'none',
    ],
    ['case only, normalised', 'Refunds in 30 days.', 'REFUNDS IN 30 DAYS.', { normalize: ['case'] }, 'none'],
    [
      'case normalised but words changed',
      'Refunds in 30 days.',
      'Refunds in 14 days.',
      { normalize: ['case'] },
      'info',
    ],
    [
      'below a strict threshold → warn',
      'Refunds in 30 days.',
      'Refunds in 14 days.',
      { similarity: 0.95 },
      'warn',
    ],
    ['above a lax threshold → info', 'Refunds are accepted.', 'We never refund.', { similarity: 0 }, 'info'],
  ])('%s', (_name, before, after, tolerance, expected) => {
    const drift = contentDrift(before, after, rules(tolerance));
    if (expected === 'none') expect(drift).toEqual([]);
    else expect(drift.map((d) => [d.kind, d.severity])).toEqual([['content_changed', expected]]);
  });

  it('keeps the old numeric threshold signature', () => {
    expect(contentDrift('a b c d', 'x y z w', 0.6)[0]?.severity).toBe('warn');
    expect(contentDrift('a b c d', 'a b c e', 0)[0]?.severity).toBe('info');
  });
});

describe('contentDrift on JSON answers', () => {
  const order = '{"order": {"id": 7, "status": "shipped", "items": [1, 2]}}';

  it('ignores key order and formatting when both answers are JSON (auto)', () => {
    const reformatted =
      '```json\n{\n  "order": {\n    "items": [1, 2],\n    "status": "shipped",\n    "id": 7\n  }\n}\n```';
    expect(contentDrift(order, reformatted, rules({}))).toEqual([]);
  });

  it('lists changed values by path in the message and keeps both texts', () => {
    const changed = '{"order": {"status": "pending", "id": 7, "items": [1, 2, 3]}}';
    const [drift] = contentDrift(order, changed, rules({}));
    expect(drift?.kind).toBe('content_changed');
    expect(drift?.message).toContain(
      '2 JSON values differ: $.order.status: "shipped" → "pending"; $.order.items[2]: added 3',
    );
    expect(drift?.baseline).toBe(order);
    expect(drift?.current).toBe(changed);
    expect(drift?.similarity).toBeGreaterThan(0);
    expect(drift?.similarity).toBeLessThan(1);
  });

  it('json: false compares the text (reformatting is drift)', () => {
    const drift = contentDrift(order, JSON.stringify(JSON.parse(order), null, 2), rules({ json: false }));
    expect(drift).toHaveLength(1);
    expect(drift[0]?.message).not.toContain('JSON');
  });

  it('auto leaves prose with embedded JSON to the text comparison', () => {
    const drift = contentDrift('The order is {"id": 7}.', 'Your order: {"id": 7}', rules({}));
    expect(drift).toHaveLength(1);
    expect(drift[0]?.message).toMatch(/^content changed \(similarity/);
  });

  it('json: true also reads JSON embedded in prose', () => {
    expect(contentDrift('The order is {"id": 7}.', 'Your order: {"id": 7}', rules({ json: true }))).toEqual(
      [],
    );
  });

  it('json: true flags an answer that stopped being JSON', () => {
    const [drift] = contentDrift(order, 'Sorry, I cannot share that.', rules({ json: true }));
    expect(drift?.message).toMatch(/the answer is no longer JSON/);
  });

  it('summarises beyond five changes', () => {
    const a = JSON.stringify(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, i])));
    const b = JSON.stringify(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, i + 1])));
    expect(contentDrift(a, b, rules({}))[0]?.message).toContain('+3 more');
  });
});
