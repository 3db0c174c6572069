import { describe, expect, it } from 'vitest';
import { similarity } from '../../src/util/similarity.js';

const samples = [
  '',
  'Refunds are accepted within 30 days.',
  'Refunds are accepted within 14 days.',
  'We accept refunds within 30 days.',
  'Bonjour le monde',
  '{"order_id": "A1", "items": [1, 2]}',
  'Σύντομη απάντηση στα ελληνικά.',
];

describe('similarity', () => {
  it.each(samples)('identical text scores 1: %j', (text) => {
    expect(similarity(text, text)).toBe(1);
  });

  it.each(samples.flatMap((a) => samples.map((b) => [a, b] as const)))(
    'is symmetric and in [0, 1]: %j vs %j',
    (a, b) => {
      const ab = similarity(a, b);
      expect(ab).toBe(similarity(b, a));
      expect(ab).toBeGreaterThanOrEqual(0);
      expect(ab).toBeLessThanOrEqual(1);
    },
  );

  it.each([
    ['alpha beta gamma', 'delta epsilon zeta'],
    ['', 'something'],
    ['one', 'two'],
  ])('disjoint text scores 0: %j vs %j', (a, b) => {
    expect(similarity(a, b)).toBe(0);
  });

  it('ignores case and whitespace layout', () => {
    expect(similarity('Refunds  within\n30 days', 'refunds within 30 days')).toBe(1);
  });

  it('ranks a one-word edit above a rewrite, and a rewrite above unrelated text', () => {
    const base = 'Refunds are accepted within 30 days of purchase with a receipt.';
    const edit = similarity(base, 'Refunds are accepted within 14 days of purchase with a receipt.');
    const rewrite = similarity(base, 'With a receipt, we accept refunds for 30 days after purchase.');
    const unrelated = similarity(base, 'The weather in Lisbon is mild in winter.');
    expect(edit).toBeGreaterThan(rewrite);
    expect(rewrite).toBeGreaterThan(unrelated);
    expect(edit).toBeGreaterThan(0.8);
  });

  it('sees word order through bigrams', () => {
    expect(similarity('dog bites man', 'man bites dog')).toBeLessThan(1);
  });

  it('handles 10 KB answers', () => {
    const words = Array.from({ length: 2000 }, (_, i) => `w${i % 300}`);
    const a = words.join(' ');
    const b = words.slice().reverse().join(' ');
    const score = similarity(a, b);
    expect(score).toBeGreaterThan(0);
    expect(score).toBeLessThan(1);
  });
});
