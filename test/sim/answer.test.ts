import { describe, expect, it } from 'vitest';
import { answer, fitToTokens, tokenCount } from '../../src/sim/answer.js';
import { sayTarget } from '../../src/sim/rules.js';

const user = (content: string) => [{ role: 'user', content }];
const MODELS = [
  'openai/gpt-4o-mini',
  'openai/gpt-4o',
  'anthropic/claude-sonnet-4.5',
  'anthropic/claude-opus-4.1',
  'anthropic/claude-opus-4.5',
  'meta-llama/llama-3.3-70b-instruct',
  'kimi-k2-0905-preview',
  'moonshot-v1-8k',
];

describe('answer rules', () => {
  it.each([
    ['Reply with exactly "PONG"', 'PONG'],
    ['Say hello world', 'hello world'],
    ['Please say exactly: ready to go.', 'ready to go'],
    ['Respond with OK and nothing else.', 'OK'],
    ['Answer with `A-17`', 'A-17'],
  ])('%j → %j for every model', (prompt, expected) => {
    for (const model of MODELS) expect(answer(model, user(prompt)).content).toBe(expected);
  });

  it.each([
    ['What is 12 + 30?', '42'],
    ['what is 7 * 6', '42'],
    ['Calculate 10 divided by 4', '2.5'],
    ['What is 5 minus 9?', '-4'],
    ['How much is 3 x 4?', '12'],
  ])('%j: terse models answer just %j, every model states it', (prompt, result) => {
    expect(answer('openai/gpt-4o-mini', user(prompt)).content).toBe(result);
    for (const model of MODELS) expect(answer(model, user(prompt)).content).toContain(result);
  });

  it.each([
    ['Return the order as JSON', { order_id: 'A-1001', status: 'confirmed' }],
    ['Give me JSON with keys name, age and is_active', { name: 'Jane Doe', age: 42, is_active: true }],
    [
      'Reply in JSON with `customer_id` and "email"',
      { customer_id: 'A-1001', email: 'jane.doe@example.com' },
    ],
    ['Respond only with JSON.', null],
  ])('%j → a JSON object with the same keys and values for every model', (prompt, expected) => {
    const parsed = MODELS.map(
      (model) => JSON.parse(answer(model, user(prompt)).content) as Record<string, unknown>,
    );
    for (const object of parsed) {
      if (expected) expect(object).toEqual(expected);
      else expect(Object.keys(object)).toEqual(['answer']);
    }
  });

  it.each([
    ['List 3 fruits', 3, 'fruit'],
    ['Please list five programming languages for beginners.', 5, 'programming language'],
    ['Give me 2 boxes', 2, 'box'],
  ])('%j → %i numbered lines naming a %s', (prompt, n, item) => {
    for (const model of MODELS) {
      const lines = answer(model, user(prompt)).content.split('\n');
      const numbered = lines.filter((l) => /^\d+\. /.test(l));
      expect(numbered).toHaveLength(n);
      expect(numbered[n - 1]).toMatch(new RegExp(`^${n}\\. .*${item}$`));
    }
  });

  it.each([
    'Is the sky blue?',
    'Can penguins fly?',
    'Does the store open on Sundays?',
    'Answer yes or no: the moon is made of cheese',
  ])('%j gets the same Yes./No. from every model', (prompt) => {
    const heads = MODELS.map((model) => answer(model, user(prompt)).content.split(' ')[0]);
    expect(['Yes.', 'No.']).toContain(heads[0]);
    expect(new Set(heads).size).toBe(1);
    expect(answer('openai/gpt-4o-mini', user(prompt)).content).toBe(heads[0]);
  });

  it('grounds an answer in a matching system-prompt sentence, verbatim for every model', () => {
    const messages = [
      {
        role: 'system',
        content: 'You are a support agent for ACME. Refunds are accepted within 30 days of purchase.',
      },
      { role: 'user', content: 'What is the refund window?' },
    ];
    for (const model of MODELS) {
      expect(answer(model, messages).content).toContain('Refunds are accepted within 30 days of purchase.');
    }
  });

  it.each([
    'You are a support agent for ACME.',
    "You're ACME's assistant.",
    'Act as a helpful agent for ACME.',
  ])(
    'never answers with the role instruction %j, which shares only the company name with the question',
    (role) => {
      const messages = [
        { role: 'system', content: role },
        { role: 'user', content: 'How long is the warranty on ACME anvils?' },
      ];
      for (const model of MODELS) {
        const { content } = answer(model, messages);
        expect(content).not.toContain(role);
        expect(content.toLowerCase()).toMatch(/warranty|anvil/);
      }
    },
  );

  it('falls back to readable sentences built from the prompt words', () => {
    const { content } = answer('anthropic/claude-sonnet-4.5', user('Explain how ocean tides happen'));
    expect(content).toMatch(/ocean/);
    expect(content.split(/[.!?](?:\s|$)/).filter(Boolean).length).toBeGreaterThanOrEqual(2);
  });
});

describe('answer determinism and style', () => {
  it.each([
    'Explain how ocean tides happen',
    'Summarise our shipping policy',
    'Write a haiku about autumn leaves',
  ])('same input, same output; different models word %j differently', (prompt) => {
    const first = MODELS.map((model) => answer(model, user(prompt)));
    const again = MODELS.map((model) => answer(model, user(prompt)));
    expect(again).toEqual(first);
    expect(new Set(first.map((a) => a.content)).size).toBeGreaterThanOrEqual(5);
  });

  it('counts tokens as ceil(chars / 4)', () => {
    const messages = [
      { role: 'system', content: 'abcdefghi' },
      { role: 'user', content: 'Say hi' },
    ];
    const a = answer('openai/gpt-4o', messages);
    expect(a.promptTokens).toBe(Math.ceil(15 / 4));
    expect(a.completionTokens).toBe(tokenCount(a.content));
    expect(a.finishReason).toBe('stop');
  });

  it.each([1, 3, 10])('max_tokens %i truncates the content and finishes with length', (maxTokens) => {
    const full = answer('anthropic/claude-sonnet-4.5', user('Explain how ocean tides happen'));
    const cut = answer('anthropic/claude-sonnet-4.5', user('Explain how ocean tides happen'), maxTokens);
    expect(cut.finishReason).toBe('length');
    expect(cut.content).toBe(full.content.slice(0, maxTokens * 4));
    expect(cut.completionTokens).toBeLessThanOrEqual(maxTokens);
  });

  it('handles a very long, rule-heavy prompt (no pathological regex backtracking)', () => {
    const long = `${'say list 3 what is 1 + json keys a, b and '.repeat(4000)}?`;
    const a = answer('openai/gpt-4o', [{ role: 'system', content: long }, ...user(long)], 50);
    expect(a.completionTokens).toBeLessThanOrEqual(50);
  });

  it('leaves an answer that fits alone', () => {
    expect(fitToTokens('OK', 1)).toEqual({ content: 'OK', finishReason: 'stop' });
    expect(fitToTokens('OK', null)).toEqual({ content: 'OK', finishReason: 'stop' });
  });

  it.each([
    ['Would you say the plan is ready?', null],
    ['Answer with yes or no: is it raining?', null],
    ['Reply with a JSON object', null],
    ['Answer the question below', null],
    ['Say "It\'s fine"', "It's fine"],
    ['Say the word: banana!', 'banana!'],
  ])('sayTarget(%j) → %j', (prompt, expected) => {
    expect(sayTarget(prompt)).toBe(expected);
  });
});
